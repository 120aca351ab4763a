package statefile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/states"
)

// TestStrataSection: strata's provider records round-trip under the
// top-level "strata" key, which is absent when there are none.
func TestStrataSection(t *testing.T) {
	s := states.New()
	s.Lineage, s.Serial, s.TerraformVersion = "l", 3, "1.11.4"
	plain, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "strata") {
		t.Errorf("a state without records has a strata section:\n%s", plain)
	}
	s.ProviderConfigs = map[string]states.ProviderConfigRecord{
		"aws_s3_bucket.b": {Provider: `provider["registry.terraform.io/hashicorp/aws"]`, Hash: "sha256:ab", Identity: map[string]string{"region": `"eu-west-1"`}},
	}
	src, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `  "check_results": null,
  "strata": {
    "provider_configs": {
      "aws_s3_bucket.b": {
        "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
        "hash": "sha256:ab",
        "identity": {
          "region": "\"eu-west-1\""
        }
      }
    }
  }
}
`
	if !strings.HasSuffix(string(src), want) {
		t.Errorf("written:\n%s\nwant the end:\n%s", src, want)
	}
	got, err := Read(src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.ProviderConfigs, got.ProviderConfigs); diff != "" {
		t.Errorf("wrong records read (-want +got)\n%s", diff)
	}
	again, err := Write(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(src) {
		t.Errorf("not stable:\n%s\n%s", src, again)
	}
}
