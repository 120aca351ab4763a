package runrecord

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedactArgs(t *testing.T) {
	tests := map[string]struct {
		in, want []string
	}{
		"var joined":        {[]string{"-var=pw=hunter2", "-auto-approve"}, []string{"-var=pw=(redacted)", "-auto-approve"}},
		"var separate":      {[]string{"-var", "pw=hunter2"}, []string{"-var", "pw=(redacted)"}},
		"double dash":       {[]string{"--var=a=b"}, []string{"--var=a=(redacted)"}},
		"backend file kept": {[]string{"-backend-config=prod.hcl", "-backend-config", "password=x"}, []string{"-backend-config=prod.hcl", "-backend-config", "password=(redacted)"}},
		"var-file kept":     {[]string{"-var-file=a.tfvars", "-target=x.y"}, []string{"-var-file=a.tfvars", "-target=x.y"}},
		"trailing var":      {[]string{"-var"}, []string{"-var"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, RedactArgs(tt.in)); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}
