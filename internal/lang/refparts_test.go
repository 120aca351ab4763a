package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestReferenceParts(t *testing.T) {
	cases := []struct {
		src                           string
		subject, remaining, container string
	}{
		{`var.x.y`, "var.x", ".y", ""},
		{`aws_instance.a.id`, "aws_instance.a", ".id", ""},
		{`aws_instance.a[0].tags["Name"]`, "aws_instance.a[0]", `.tags["Name"]`, "aws_instance.a"},
		{`aws_instance.a["k"]`, `aws_instance.a["k"]`, "", "aws_instance.a"},
		{`module.m.out[1]`, "module.m.out", "[1]", "module.m"},
		{`module.m["k"].out.x`, `module.m["k"].out`, ".x", `module.m["k"]`},
		{`module.m[2]`, "module.m[2]", "", "module.m"},
		{`local.l[1.5]`, "local.l", "[1.5]", ""},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			trav, diags := hclsyntax.ParseTraversalAbs([]byte(tc.src), "t.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			ref, err := ParseRef(trav)
			if err != nil || ref == nil {
				t.Fatalf("ParseRef: %v", err)
			}
			subject, remaining, container := ReferenceParts(ref)
			if subject != tc.subject || RelativeTraversalString(remaining) != tc.remaining || container != tc.container {
				t.Errorf("got %q %q %q, want %q %q %q", subject, RelativeTraversalString(remaining), container, tc.subject, tc.remaining, tc.container)
			}
		})
	}
}
