package configs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestEarlyEvaluation(t *testing.T) {
	const decls = `
variable "env" {
  default = "dev"
}
variable "ver" {
  type    = string
  default = "1.0.0"
}
locals {
  base = "./modules"
  dir  = "${local.base}/${lower(var.env)}"
}
`
	tests := map[string]struct {
		call        string
		given       map[string]cty.Value
		source, ver string
	}{
		"default":           {`source = local.dir`, nil, "./modules/dev", ""},
		"given":             {`source = local.dir`, map[string]cty.Value{"env": cty.StringVal("PROD")}, "./modules/prod", ""},
		"version":           {"source = \"hashicorp/consul/aws\"\n  version = \"~> ${var.ver}\"", nil, "hashicorp/consul/aws", "~> 1.0.0"},
		"function and path": {`source = format("%s/%s", path.module, var.env)`, nil, "./dev", ""},
		"literal":           {`source = "./x"`, map[string]cty.Value{"env": cty.StringVal("ignored")}, "./x", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := NewParser()
			p.SetRootVariables(".", func(*Module) map[string]cty.Value { return tc.given })
			mod, diags := p.LoadModuleFromSources(".", map[string][]byte{"main.tf": []byte(decls + "module \"m\" {\n  " + tc.call + "\n}\n")})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			mc := mod.ModuleCalls["m"]
			if mc.Source != tc.source || mc.Version != tc.ver {
				t.Errorf("source %q version %q, want %q %q", mc.Source, mc.Version, tc.source, tc.ver)
			}
		})
	}
}
