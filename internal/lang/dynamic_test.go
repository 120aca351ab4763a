package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

func TestMayHaveDynamicBlocks(t *testing.T) {
	cases := []struct {
		name, src string
		json      bool
		want      bool
	}{
		{"attributes only", "a = 1\nb = x.y\n", false, false},
		{"static nested blocks", "a = 1\nrule {\n  port = 80\n  inner {\n    x = 1\n  }\n}\n", false, false},
		{"top-level dynamic", "dynamic \"rule\" {\n  for_each = var.r\n  content {}\n}\n", false, true},
		{"dynamic inside a nested block", "outer {\n  dynamic \"rule\" {\n    for_each = var.r\n    content {}\n  }\n}\n", false, true},
		{"JSON body", `{"a": 1}`, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := hclparse.NewParser()
			var f *hcl.File
			var diags hcl.Diagnostics
			if c.json {
				f, diags = p.ParseJSON([]byte(c.src), "x.tf.json")
			} else {
				f, diags = p.ParseHCL([]byte(c.src), "x.tf")
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := mayHaveDynamicBlocks(f.Body); got != c.want {
				t.Errorf("mayHaveDynamicBlocks = %v, want %v", got, c.want)
			}
		})
	}
}
