package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// refSummary is what the reference tests compare.
type refSummary struct {
	Subject     Referenceable
	String      string
	SourceRange string
	Remaining   string
}

func summarizeRef(ref *Reference) refSummary {
	return refSummary{
		Subject:     ref.Subject,
		String:      ref.Subject.String(),
		SourceRange: fmtRange(&ref.SourceRange),
		Remaining:   travString(ref.Remaining),
	}
}

func summarizeRefs(refs []*Reference) []refSummary {
	var ret []refSummary
	for _, r := range refs {
		ret = append(ret, summarizeRef(r))
	}
	return ret
}

func managed(typ, name string) ResourceRef {
	return ResourceRef{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}}
}

func dataRes(typ, name string) ResourceRef {
	return ResourceRef{Resource: addrs.Resource{Mode: addrs.DataResourceMode, Type: typ, Name: name}}
}

func parseTraversal(t *testing.T, src string) hcl.Traversal {
	t.Helper()
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing %q: %s", src, diags.Error())
	}
	return trav
}

func TestParseRef(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src       string
		want      *refSummary
		wantDiags []diag
	}{
		"var": {
			src:  "var.foo",
			want: &refSummary{InputVariable{Name: "foo"}, "var.foo", "1,1-1,8", ""},
		},
		"var with attributes": {
			src:  `var.foo.bar["baz"][0]`,
			want: &refSummary{InputVariable{Name: "foo"}, "var.foo", "1,1-1,8", `.bar["baz"][0]`},
		},
		"local": {
			src:  "local.x",
			want: &refSummary{LocalValue{Name: "x"}, "local.x", "1,1-1,8", ""},
		},
		"local with index": {
			src:  "local.x[1]",
			want: &refSummary{LocalValue{Name: "x"}, "local.x", "1,1-1,8", "[1]"},
		},
		"count.index": {
			src:  "count.index",
			want: &refSummary{CountAttr{Name: "index"}, "count.index", "1,1-1,12", ""},
		},
		"count with another attribute": {
			// Checked when evaluating, not when parsing.
			src:  "count.value",
			want: &refSummary{CountAttr{Name: "value"}, "count.value", "1,1-1,12", ""},
		},
		"each.key": {
			src:  "each.key",
			want: &refSummary{EachAttr{Name: "key"}, "each.key", "1,1-1,9", ""},
		},
		"each.value with attributes": {
			src:  "each.value.name",
			want: &refSummary{EachAttr{Name: "value"}, "each.value", "1,1-1,11", ".name"},
		},
		"path.module": {
			src:  "path.module",
			want: &refSummary{PathAttr{Name: "module"}, "path.module", "1,1-1,12", ""},
		},
		"path.root": {
			src:  "path.root",
			want: &refSummary{PathAttr{Name: "root"}, "path.root", "1,1-1,10", ""},
		},
		"path.cwd": {
			src:  "path.cwd",
			want: &refSummary{PathAttr{Name: "cwd"}, "path.cwd", "1,1-1,9", ""},
		},
		"terraform.workspace": {
			src:  "terraform.workspace",
			want: &refSummary{TerraformAttr{Name: "workspace"}, "terraform.workspace", "1,1-1,20", ""},
		},
		"module": {
			src:  "module.net",
			want: &refSummary{ModuleCallRef{Name: "net"}, "module.net", "1,1-1,11", ""},
		},
		"module output": {
			src:  `module.net["a"].vpc_id`,
			want: &refSummary{ModuleCallRef{Name: "net"}, "module.net", "1,1-1,11", `["a"].vpc_id`},
		},
		"self": {
			src:  "self",
			want: &refSummary{SelfRef{}, "self", "1,1-1,5", ""},
		},
		"self with attributes": {
			src:  "self.id",
			want: &refSummary{SelfRef{}, "self", "1,1-1,5", ".id"},
		},
		"self with index": {
			src:  "self[0]",
			want: &refSummary{SelfRef{}, "self", "1,1-1,5", "[0]"},
		},
		"managed resource": {
			src:  "aws_instance.web",
			want: &refSummary{managed("aws_instance", "web"), "aws_instance.web", "1,1-1,17", ""},
		},
		"managed resource attribute": {
			src:  "aws_instance.web.id",
			want: &refSummary{managed("aws_instance", "web"), "aws_instance.web", "1,1-1,17", ".id"},
		},
		"managed resource instance": {
			src:  "aws_instance.web[0].id",
			want: &refSummary{managed("aws_instance", "web"), "aws_instance.web", "1,1-1,17", "[0].id"},
		},
		"managed resource keyed instance": {
			src:  `terraform_data.x["a b"].output`,
			want: &refSummary{managed("terraform_data", "x"), "terraform_data.x", "1,1-1,17", `["a b"].output`},
		},
		"data resource": {
			src:  "data.aws_ami.ubuntu",
			want: &refSummary{dataRes("aws_ami", "ubuntu"), "data.aws_ami.ubuntu", "1,1-1,20", ""},
		},
		"data resource attribute": {
			src:  "data.aws_ami.ubuntu.id",
			want: &refSummary{dataRes("aws_ami", "ubuntu"), "data.aws_ami.ubuntu", "1,1-1,20", ".id"},
		},
		"data resource instance": {
			src:  `data.aws_ami.ubuntu["x"].id`,
			want: &refSummary{dataRes("aws_ami", "ubuntu"), "data.aws_ami.ubuntu", "1,1-1,20", `["x"].id`},
		},
		"resource-prefixed managed resource": {
			src:  "resource.terraform_data.x.output",
			want: &refSummary{ResourceRef{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "x"}, Prefixed: true}, "terraform_data.x", "1,1-1,26", ".output"},
		},
		"bare var": {
			src:       "var",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,4")},
		},
		"index on var": {
			src:       `var["foo"]`,
			wantDiags: []diag{errDiag("Invalid reference", "1,4-1,11")},
		},
		"bare local": {
			src:       "local",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,6")},
		},
		"index on local": {
			src:       "local[0]",
			wantDiags: []diag{errDiag("Invalid reference", "1,6-1,9")},
		},
		"bare count": {
			src:       "count",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,6")},
		},
		"bare each": {
			src:       "each",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,5")},
		},
		"bare path": {
			src:       "path",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,5")},
		},
		"bare terraform": {
			src:       "terraform",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,10")},
		},
		"bare module": {
			src:       "module",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,7")},
		},
		"index on module": {
			src:       `module["x"]`,
			wantDiags: []diag{errDiag("Invalid reference", "1,7-1,12")},
		},
		"bare data": {
			src:       "data",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,5")},
		},
		"data with type only": {
			src:       "data.x",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,7")},
		},
		"data with index for type": {
			src:       `data["x"].y`,
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,12")},
		},
		"data with index for name": {
			src:       `data.x["y"]`,
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,12")},
		},
		"resource type only": {
			src:       "aws_instance",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,13")},
		},
		"resource type with index": {
			src:       "aws_instance[0]",
			wantDiags: []diag{errDiag("Invalid reference", "1,1-1,16")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ref, diags := ParseRef(parseTraversal(t, tc.src))
			assertDiags(t, diags, tc.wantDiags)
			var got *refSummary
			if ref != nil {
				s := summarizeRef(ref)
				got = &s
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong reference (-want +got)\n%s", diff)
			}
		})
	}
}

func TestReferencesInExpr(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src       string
		want      []refSummary
		wantDiags []diag
	}{
		"literal": {
			src: `"hello"`,
		},
		"several roots": {
			src: `"${var.a}-${local.b}" == path.module ? data.x.y.z : aws_instance.w[count.index].id`,
			want: []refSummary{
				{InputVariable{Name: "a"}, "var.a", "1,4-1,9", ""},
				{LocalValue{Name: "b"}, "local.b", "1,13-1,20", ""},
				{PathAttr{Name: "module"}, "path.module", "1,26-1,37", ""},
				{dataRes("x", "y"), "data.x.y", "1,40-1,48", ".z"},
				{managed("aws_instance", "w"), "aws_instance.w", "1,53-1,67", ""},
				{CountAttr{Name: "index"}, "count.index", "1,68-1,79", ""},
			},
		},
		"for expression iterators are not references": {
			src: `[for k, v in var.m : "${k}=${v}" if v != each.key]`,
			want: []refSummary{
				{InputVariable{Name: "m"}, "var.m", "1,14-1,19", ""},
				{EachAttr{Name: "key"}, "each.key", "1,42-1,50", ""},
			},
		},
		"splat": {
			src: `terraform_data.x[*].output`,
			want: []refSummary{
				{managed("terraform_data", "x"), "terraform_data.x", "1,1-1,17", ""},
			},
		},
		"function arguments": {
			src: `upper(var.s)`,
			want: []refSummary{
				{InputVariable{Name: "s"}, "var.s", "1,7-1,12", ""},
			},
		},
		"invalid references are left out": {
			src: `[var, var.ok, data.x, module.m]`,
			want: []refSummary{
				{InputVariable{Name: "ok"}, "var.ok", "1,7-1,13", ""},
				{ModuleCallRef{Name: "m"}, "module.m", "1,23-1,31", ""},
			},
			wantDiags: []diag{
				errDiag("Invalid reference", "1,2-1,5"),
				errDiag("Invalid reference", "1,15-1,21"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			refs, diags := ReferencesInExpr(parseExpr(t, tc.src))
			assertDiags(t, diags, tc.wantDiags)
			if diff := cmp.Diff(tc.want, summarizeRefs(refs)); diff != "" {
				t.Errorf("wrong references (-want +got)\n%s", diff)
			}
		})
	}

	t.Run("nil expression", func(t *testing.T) {
		t.Parallel()
		refs, diags := ReferencesInExpr(nil)
		if refs != nil || diags != nil {
			t.Errorf("got %v, %v; want nothing", refs, diags)
		}
	})
}

func TestReferenceableString(t *testing.T) {
	t.Parallel()
	tests := map[string]Referenceable{
		"var.a":               InputVariable{Name: "a"},
		"local.a":             LocalValue{Name: "a"},
		"a_b.c":               managed("a_b", "c"),
		"data.a_b.c":          dataRes("a_b", "c"),
		"count.index":         CountAttr{Name: "index"},
		"each.value":          EachAttr{Name: "value"},
		"path.root":           PathAttr{Name: "root"},
		"terraform.workspace": TerraformAttr{Name: "workspace"},
		"module.a":            ModuleCallRef{Name: "a"},
		"self":                SelfRef{},
	}
	for want, r := range tests {
		if got := r.String(); got != want {
			t.Errorf("%#v.String() = %q; want %q", r, got, want)
		}
	}
}

// travString renders a traversal as it would be written.
func travString(trav hcl.Traversal) string {
	var b strings.Builder
	for _, step := range trav {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			switch s.Key.Type() {
			case cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			default:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}
