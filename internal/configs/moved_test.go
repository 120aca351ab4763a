package configs

import (
	"strings"
	"testing"
)

func TestMoved(t *testing.T) {
	tests := map[string]struct {
		src      string
		from, to string
		wantErr  string
	}{
		"resource":             {src: "moved {\n  from = terraform_data.a\n  to = terraform_data.b\n}\n", from: "terraform_data.a", to: "terraform_data.b"},
		"instance":             {src: "moved {\n  from = terraform_data.a[0]\n  to = terraform_data.a[\"x\"]\n}\n", from: "terraform_data.a[0]", to: `terraform_data.a["x"]`},
		"resource to instance": {src: "moved {\n  from = terraform_data.a\n  to = terraform_data.a[0]\n}\n", from: "terraform_data.a", to: "terraform_data.a[0]"},
		"type mismatch":        {src: "moved {\n  from = terraform_data.a\n  to = null_resource.b\n}\n", wantErr: "Resource type mismatch"},
		"module call":          {src: "moved {\n  from = module.a\n  to = module.b\n}\n", from: "module.a", to: "module.b"},
		"module instance":      {src: "moved {\n  from = module.a[0]\n  to = module.b.module.c[\"x\"]\n}\n", from: "module.a[0]", to: `module.b.module.c["x"]`},
		"resource in a module": {src: "moved {\n  from = module.a.terraform_data.r\n  to = terraform_data.r\n}\n", from: "module.a.terraform_data.r", to: "terraform_data.r"},
		"module to resource":   {src: "moved {\n  from = module.a\n  to = terraform_data.b\n}\n", wantErr: "Invalid \"moved\" addresses"},
		"reserved word":        {src: "moved {\n  from = var.a\n  to = terraform_data.b\n}\n", wantErr: `The keyword "var" is reserved`},
		"not an address":       {src: "moved {\n  from = terraform_data.a.b.c\n  to = terraform_data.b\n}\n", wantErr: "Resource instance key must be given in square brackets."},
		"missing to":           {src: "moved {\n  from = terraform_data.a\n}\n", wantErr: "Missing required argument"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mod, diags := loadModuleSrc(t, map[string]string{"main.tf": tc.src})
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("got %v, want error %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if len(mod.Moved) != 1 || mod.Moved[0].FromAddr() != tc.from || mod.Moved[0].ToAddr() != tc.to {
				t.Fatalf("wrong moved %+v", mod.Moved)
			}
		})
	}
}

func TestRemoved(t *testing.T) {
	tests := map[string]struct {
		src         string
		wantDestroy bool
		wantFrom    string // defaults to terraform_data.a
		wantErr     string
	}{
		"forget":              {src: "removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}\n"},
		"destroy default":     {src: "removed {\n  from = terraform_data.a\n}\n", wantDestroy: true},
		"still configured":    {src: "removed {\n  from = terraform_data.a\n}\nresource \"terraform_data\" \"a\" {}\n", wantErr: "Removed resource still exists"},
		"instance key":        {src: "removed {\n  from = terraform_data.a[0]\n}\n", wantErr: "Resource instance keys not allowed"},
		"module":              {src: "removed {\n  from = module.a\n  lifecycle {\n    destroy = false\n  }\n}\n", wantFrom: "module.a"},
		"module key":          {src: "removed {\n  from = module.a[0]\n}\n", wantErr: "Module instance keys not allowed"},
		"module key steps":    {src: "removed {\n  from = module.a[0][1].x.y\n}\n", wantErr: "Module instance keys not allowed"},
		"attribute after":     {src: "removed {\n  from = terraform_data.a.b\n}\n", wantErr: "Resource instance keys not allowed"},
		"not an address":      {src: "removed {\n  from = nope\n}\n", wantErr: "Resource specification must include a resource type and name."},
		"data source":         {src: "removed {\n  from = data.x.y\n}\n", wantErr: "Data source address not allowed"},
		"module still called": {src: "removed {\n  from = module.a\n}\nmodule \"a\" {\n  source = \"./a\"\n}\n", wantErr: "Removed module still exists"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mod, diags := loadModuleSrc(t, map[string]string{"main.tf": tc.src})
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("got %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			wantFrom := "terraform_data.a"
			if tc.wantFrom != "" {
				wantFrom = tc.wantFrom
			}
			if len(mod.Removed) != 1 || mod.Removed[0].Destroy != tc.wantDestroy || mod.Removed[0].From.String() != wantFrom {
				t.Fatalf("wrong removed %+v", mod.Removed)
			}
		})
	}
}
