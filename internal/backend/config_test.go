package backend

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
)

// TestBackendHashMatchesTerraform: the hashes Terraform 1.11.4 recorded in
// .terraform/terraform.tfstate for these backend blocks.
func TestBackendHashMatchesTerraform(t *testing.T) {
	tests := map[string]struct {
		body string
		want uint64
	}{
		"schema only": {
			body: "schema_name = \"tfb1\"\n",
			want: 2771181544,
		},
		"conn_str and schema": {
			body: "conn_str = \"postgres://postgres@127.0.0.1:54391/postgres?sslmode=disable\"\nschema_name = \"tfb3\"\n",
			want: 135419524,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, diags := hclparse.NewParser().ParseHCL([]byte(tc.body), "backend.hcl")
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			pg, _ := Lookup("pg")
			if got := Hash("pg", f.Body, pg.Schema); got != tc.want {
				t.Errorf("hash %d, want %d", got, tc.want)
			}
		})
	}
}
