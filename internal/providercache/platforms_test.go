package providercache

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/getproviders"
)

func TestParsePlatforms(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in      []string
		want    []string
		wantErr string
	}{
		"default":    {in: nil, want: []string{getproviders.Platform()}},
		"several":    {in: []string{"linux_amd64", "darwin_arm64"}, want: []string{"linux_amd64", "darwin_arm64"}},
		"one word":   {in: []string{"bogus"}, wantErr: `The string "bogus" given in the -platform option is not a valid target platform: must be two words separated by an underscore.`},
		"three":      {in: []string{"linux_amd64_v2"}, wantErr: "must be two words"},
		"empty arch": {in: []string{"linux_"}, wantErr: "must be two words"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := ParsePlatforms(tc.in)
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags[0].Detail, tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}
