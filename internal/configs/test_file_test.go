package configs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadTestFileOverrideErrors: override blocks whose values or outputs
// are not objects, and override_during keywords other than plan and
// apply, are refused when the file is read, in terraform test's words
// (its mocking-invalid fixture).
func TestLoadTestFileOverrideErrors(t *testing.T) {
	tests := map[string]struct {
		src  string
		want []string
	}{
		"outputs not an object": {
			src:  "override_module {\n  target  = module.child[1]\n  outputs = \"should be an object\"\n}\n",
			want: []string{"Invalid outputs attribute: override_module blocks must specify an outputs attribute that is an object."},
		},
		"values not an object": {
			src:  "override_resource {\n  target = test_resource.a\n  values = [1]\n}\n",
			want: []string{"Invalid values attribute: override_resource blocks must specify a values attribute that is an object."},
		},
		"objects and function calls are fine": {
			src:  "override_resource {\n  target = test_resource.a\n  values = { id = \"x\" }\n}\noverride_data {\n  target = data.test_data_source.b\n  values = merge({}, { id = \"y\" })\n}\n",
			want: nil,
		},
		"override_during keyword": {
			src:  "mock_provider \"test\" {\n  override_during = baz\n}\n",
			want: []string{"Invalid override_during value: The override_during attribute must be a value of plan or apply."},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.tftest.hcl")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := NewParser().LoadTestFile(path)
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary+": "+d.Detail)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
