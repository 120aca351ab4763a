package lang

import (
	"maps"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/lang/marks"
)

func TestScopeEvalExpr(t *testing.T) {
	t.Parallel()
	str := cty.StringVal
	num := cty.NumberIntVal
	tests := map[string]struct {
		src       string
		key       *InstanceKeyData // nil for the module-level scope
		wantType  cty.Type         // DynamicPseudoType when unset
		want      cty.Value
		wantDiags []diag
	}{
		// Values of every kind.
		"literal": {
			src:  `"hello"`,
			want: str("hello"),
		},
		"variable": {
			src:  `var.name`,
			want: str("web"),
		},
		"variable in a template": {
			src:  `"${local.prefix}-${var.name}"`,
			want: str("app-web"),
		},
		"collection variable": {
			src:  `var.zones[1]`,
			want: str("b"),
		},
		"map variable": {
			src:  `var.tags["team"]`,
			want: str("core"),
		},
		"object variable": {
			src:  `var.obj.b[0]`,
			want: str("x"),
		},
		"local": {
			src:  `local.count * 2`,
			want: num(4),
		},
		"single resource": {
			src:  `terraform_data.single.output`,
			want: str("out-s"),
		},
		"counted resource": {
			src:  `terraform_data.counted[1].id`,
			want: str("c1"),
		},
		"counted resource splat": {
			src:  `terraform_data.counted[*].id`,
			want: cty.TupleVal([]cty.Value{str("c0"), str("c1")}),
		},
		"counted resource length": {
			src:  `length(terraform_data.counted)`,
			want: num(2),
		},
		"keyed resource": {
			src:  `terraform_data.keyed["y"].id`,
			want: str("ky"),
		},
		"keyed resource values": {
			src:  `[for k, r in terraform_data.keyed : "${k}=${r.id}"]`,
			want: cty.TupleVal([]cty.Value{str("x=kx"), str("y=ky")}),
		},
		"mapped resource": {
			src:  `terraform_data.mapped.m.output`,
			want: str("out-mm"),
		},
		"data resource": {
			src:  `data.terraform_remote_state.net.outputs.vpc_id`,
			want: str("vpc-1"),
		},
		"managed and data resources of one type": {
			src:  `"${terraform_data.single.id}/${data.terraform_data.single.id}"`,
			want: str("s/d"),
		},
		"pending resource": {
			src:  `terraform_data.pending.id`,
			want: cty.DynamicVal,
		},
		"path and terraform": {
			src:  `"${path.module}:${path.cwd}:${terraform.workspace}"`,
			want: str("/mod:/cwd:default"),
		},
		"module output": {
			src:  `module.net.vpc_id`,
			want: str("vpc-2"),
		},
		"unknown variable": {
			src:  `upper(var.unknown)`,
			want: cty.UnknownVal(cty.String).RefineNotNull(),
		},
		"null variable": {
			src:  `var.nullstr == null`,
			want: cty.True,
		},

		// Instance keys.
		"count.index": {
			src:  `"${var.name}-${count.index}"`,
			key:  &InstanceKeyData{CountIndex: num(2)},
			want: str("web-2"),
		},
		"count.index selects an element": {
			src:  `var.zones[count.index]`,
			key:  &InstanceKeyData{CountIndex: num(0)},
			want: str("a"),
		},
		"each.key and each.value": {
			src: `"${each.key}=${each.value.port}"`,
			key: &InstanceKeyData{
				EachKey:   str("ssh"),
				EachValue: cty.ObjectVal(map[string]cty.Value{"port": num(22)}),
			},
			want: str("ssh=22"),
		},
		"each over a set": {
			src:  `each.value`,
			key:  &InstanceKeyData{EachKey: str("a"), EachValue: str("a")},
			want: str("a"),
		},
		"unknown count.index during validation": {
			src:  `count.index + 1`,
			key:  &InstanceKeyData{CountIndex: cty.UnknownVal(cty.Number)},
			want: cty.UnknownVal(cty.Number).RefineNotNull(),
		},
		"count outside a counted resource": {
			src:       `"x-${count.index}"`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Reference to "count" in non-counted context`, "1,6-1,17")},
		},
		"count in a for_each resource": {
			src:       `count.index`,
			key:       &InstanceKeyData{EachKey: str("a"), EachValue: str("a")},
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Reference to "count" in non-counted context`, "1,1-1,12")},
		},
		"each outside a for_each resource": {
			src:       `each.key`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Reference to "each" in context without for_each`, "1,1-1,9")},
		},
		"each in a counted resource": {
			src:       `each.value`,
			key:       &InstanceKeyData{CountIndex: num(0)},
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Reference to "each" in context without for_each`, "1,1-1,11")},
		},
		"invalid count attribute": {
			src:       `count.value`,
			key:       &InstanceKeyData{CountIndex: num(0)},
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Invalid "count" attribute`, "1,1-1,12")},
		},
		"invalid each attribute": {
			src:       `each.index`,
			key:       &InstanceKeyData{EachKey: str("a"), EachValue: str("a")},
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Invalid "each" attribute`, "1,1-1,11")},
		},
		"self": {
			src:       `self.id`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Invalid "self" reference`, "1,1-1,5")},
		},
		"invalid reference": {
			src:       `length(var)`,
			wantType:  cty.Number,
			want:      cty.UnknownVal(cty.Number),
			wantDiags: []diag{errDiag("Invalid reference", "1,8-1,11")},
		},
		"undeclared variable": {
			src:       `var.nope`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Reference to undeclared input variable", "1,1-1,9")},
		},
		"undeclared resource": {
			src:       `terraform_data.nope.id`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Reference to undeclared resource", "1,1-1,20")},
		},
		"every error is reported": {
			src:  `"${var.nope}${local.nope}${count.index}${data.x.y.z}"`,
			want: cty.DynamicVal,
			wantDiags: []diag{
				errDiag("Reference to undeclared input variable", "1,4-1,12"),
				errDiag("Reference to undeclared local value", "1,15-1,25"),
				errDiag(`Reference to "count" in non-counted context`, "1,28-1,39"),
				errDiag("Reference to undeclared data resource", "1,42-1,50"),
			},
		},
		"invalid path attribute": {
			src:       `path.nope`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag(`Invalid "path" attribute`, "1,1-1,10")},
		},
		"unsupported attribute of a resource": {
			src:       `terraform_data.single.nope`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Unsupported attribute", "1,22-1,27")},
		},
		"attribute of a counted resource without an index": {
			src:       `terraform_data.counted.id`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Unsupported attribute", "1,23-1,26")},
		},
		"index out of range": {
			src:       `terraform_data.counted[5].id`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Invalid index", "1,23-1,26")},
		},
		"missing key": {
			src:       `terraform_data.keyed["z"]`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Invalid index", "1,21-1,26")},
		},

		// Type conversion.
		"conversion": {
			src:      `var.numstr`,
			wantType: cty.Number,
			want:     num(42),
		},
		"conversion to a collection": {
			src:      `[var.num, "x"]`,
			wantType: cty.List(cty.String),
			want:     cty.ListVal([]cty.Value{str("3"), str("x")}),
		},
		"conversion of an unknown": {
			src:      `var.unknown`,
			wantType: cty.String,
			want:     cty.UnknownVal(cty.String),
		},
		"conversion error": {
			src:       `var.word`,
			wantType:  cty.Number,
			want:      cty.UnknownVal(cty.Number),
			wantDiags: []diag{errDiag("Incorrect value type", "1,1-1,9")},
		},
		"structural conversion error": {
			src:       `{ a = var.zones }`,
			wantType:  cty.Map(cty.String),
			want:      cty.UnknownVal(cty.Map(cty.String)),
			wantDiags: []diag{errDiag("Incorrect value type", "1,1-1,18")},
		},
		"conversion error in a multi-line expression": {
			src:       "[\n  var.name,\n]",
			wantType:  cty.String,
			want:      cty.UnknownVal(cty.String),
			wantDiags: []diag{errDiag("Incorrect value type", "1,1-3,2")},
		},

		// Functions.
		"upper": {
			src:  `upper(var.name)`,
			want: str("WEB"),
		},
		"core namespace": {
			src:  `core::upper(var.name)`,
			want: str("WEB"),
		},
		"jsonencode": {
			src:  `jsonencode({ zones = var.zones, n = var.num })`,
			want: str(`{"n":3,"zones":["a","b","c"]}`),
		},
		"try": {
			src:  `try(var.obj.missing, var.tags.nope, "fallback")`,
			want: str("fallback"),
		},
		"try first success": {
			src:  `try(var.obj.a, "fallback")`,
			want: num(1),
		},
		"can": {
			src:  `[can(var.obj.missing), can(var.obj.a)]`,
			want: cty.TupleVal([]cty.Value{cty.False, cty.True}),
		},
		"function error": {
			src:       `element(var.zones, "x")`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Invalid function argument", "1,21-1,22")},
		},
		"unknown function": {
			src:       `nope(1)`,
			want:      cty.DynamicVal,
			wantDiags: []diag{errDiag("Call to unknown function", "1,1-1,5")},
		},
		"file functions use the base directory": {
			src:  `fileexists("scope_test.go")`,
			want: cty.True,
		},

		// Sensitive values.
		"sensitive variable": {
			src:  `var.secret`,
			want: str("hunter2").Mark(marks.Sensitive),
		},
		"sensitive through a function": {
			src:  `upper(var.secret)`,
			want: str("HUNTER2").Mark(marks.Sensitive),
		},
		"sensitive through a template": {
			src:  `"pw=${var.secret}"`,
			want: str("pw=hunter2").Mark(marks.Sensitive),
		},
		"sensitive through jsonencode": {
			src:  `jsonencode({ pw = var.secret })`,
			want: str(`{"pw":"hunter2"}`).Mark(marks.Sensitive),
		},
		"sensitive through conversion": {
			src:      `var.secret_list`,
			wantType: cty.Set(cty.String),
			want:     cty.SetVal([]cty.Value{str("s1"), str("s2")}).Mark(marks.Sensitive),
		},
		"sensitive element": {
			src:  `var.secret_list[0]`,
			want: str("s1").Mark(marks.Sensitive),
		},
		"sensitive inside a collection": {
			src:  `[var.name, var.secret]`,
			want: cty.TupleVal([]cty.Value{str("web"), str("hunter2").Mark(marks.Sensitive)}),
		},
		"sensitive function": {
			src:  `sensitive(var.name)`,
			want: str("web").Mark(marks.Sensitive),
		},
		"nonsensitive": {
			src:  `nonsensitive(var.secret)`,
			want: str("hunter2"),
		},
		"sensitive condition": {
			src:  `var.secret == "x" ? 1 : 2`,
			want: num(2).Mark(marks.Sensitive),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			scope := &Scope{Data: newFakeData(), BaseDir: "."}
			if tc.key != nil {
				scope = scope.WithKey(*tc.key)
			}
			wantType := tc.wantType
			if wantType == cty.NilType {
				wantType = cty.DynamicPseudoType
			}
			got, diags := scope.EvalExpr(parseExpr(t, tc.src), wantType)
			assertDiags(t, diags, tc.wantDiags)
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}

func TestScopeEvalExpr_diagnosticContext(t *testing.T) {
	t.Parallel()
	// Conversion errors carry the expression and context, so that the
	// renderer can show the values involved.
	scope := &Scope{Data: newFakeData()}
	expr := parseExpr(t, `var.word`)
	_, diags := scope.EvalExpr(expr, cty.Number)
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %d", len(diags))
	}
	d := diags[0]
	if d.Expression != expr || d.EvalContext == nil {
		t.Fatalf("diagnostic lacks expression or context: %#v", d)
	}
	got := d.EvalContext.Variables["var"].GetAttr("word")
	if !got.RawEquals(cty.StringVal("abc")) {
		t.Errorf("wrong value in context: %#v", got)
	}
}

func TestScopeEvalExpr_lookups(t *testing.T) {
	t.Parallel()
	// Only what the expression refers to is looked up, once per
	// reference.
	data := newFakeData()
	scope := &Scope{Data: data}
	_, diags := scope.EvalExpr(parseExpr(t, `[var.name, var.name, local.prefix, data.terraform_remote_state.net, module.net, path.root, terraform.workspace]`), cty.DynamicPseudoType)
	assertDiags(t, diags, nil)
	want := []string{
		"data.terraform_remote_state.net",
		"local.prefix",
		"module.net",
		"path.root",
		"terraform.workspace",
		"var.name",
		"var.name",
	}
	if diff := cmp.Diff(want, data.lookups()); diff != "" {
		t.Errorf("wrong lookups (-want +got)\n%s", diff)
	}
}

func TestScopeEvalContext(t *testing.T) {
	t.Parallel()
	scope := &Scope{Data: newFakeData()}
	refs, diags := ReferencesInExpr(parseExpr(t, `[var.name, terraform_data.single, data.terraform_data.single, data.terraform_remote_state.net]`))
	assertDiags(t, diags, nil)
	ctx, diags := scope.EvalContext(refs)
	assertDiags(t, diags, nil)
	roots := slices.Sorted(maps.Keys(ctx.Variables))
	if diff := cmp.Diff([]string{"data", "terraform_data", "var"}, roots); diff != "" {
		t.Errorf("wrong roots (-want +got)\n%s", diff)
	}
	wantData := cty.ObjectVal(map[string]cty.Value{
		"terraform_data": cty.ObjectVal(map[string]cty.Value{
			"single": newFakeData().resources["data.terraform_data.single"],
		}),
		"terraform_remote_state": cty.ObjectVal(map[string]cty.Value{
			"net": newFakeData().resources["data.terraform_remote_state.net"],
		}),
	})
	if diff := cmp.Diff(wantData, ctx.Variables["data"], ctyOpts); diff != "" {
		t.Errorf("wrong data object (-want +got)\n%s", diff)
	}
	if ctx.Functions["upper"].Params() == nil {
		t.Errorf("no functions in the context")
	}
}

func TestScopeWithKey(t *testing.T) {
	t.Parallel()
	data := newFakeData()
	base := &Scope{Data: data, BaseDir: "/base", PureOnly: true}
	key := InstanceKeyData{CountIndex: cty.NumberIntVal(1)}
	child := base.WithKey(key)
	if child.Data != base.Data || child.BaseDir != "/base" || !child.PureOnly {
		t.Errorf("child scope lost settings: %+v", child)
	}
	if !child.Key.CountIndex.RawEquals(cty.NumberIntVal(1)) || base.Key.CountIndex != cty.NilVal {
		t.Errorf("wrong keys: child %#v, base %#v", child.Key, base.Key)
	}
	// The function table is built once and shared.
	if reflect.ValueOf(base.Functions()).Pointer() != reflect.ValueOf(child.Functions()).Pointer() {
		t.Errorf("child scope built its own function table")
	}
	// Keys of one child do not leak into another.
	other := base.WithKey(InstanceKeyData{EachKey: cty.StringVal("a"), EachValue: cty.StringVal("b")})
	if other.Key.CountIndex != cty.NilVal {
		t.Errorf("count.index leaked into a for_each scope")
	}
}

func TestScopeFunctions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		pure      bool
		src       string
		wantKnown bool
	}{
		"timestamp":      {pure: false, src: `timestamp()`, wantKnown: true},
		"pure timestamp": {pure: true, src: `timestamp()`, wantKnown: false},
		"pure uuid":      {pure: true, src: `uuid()`, wantKnown: false},
		"pure upper":     {pure: true, src: `upper("a")`, wantKnown: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			scope := &Scope{Data: newFakeData(), PureOnly: tc.pure}
			got, diags := scope.EvalExpr(parseExpr(t, tc.src), cty.String)
			assertDiags(t, diags, nil)
			if got.IsKnown() != tc.wantKnown {
				t.Errorf("got %#v; want known=%v", got, tc.wantKnown)
			}
		})
	}
	t.Run("names", func(t *testing.T) {
		t.Parallel()
		fns := (&Scope{}).Functions()
		for _, name := range []string{"upper", "jsonencode", "try", "can", "sensitive", "core::upper", "core::try"} {
			if _, ok := fns[name]; !ok {
				t.Errorf("function %q is missing", name)
			}
		}
	})
}

func TestScopeConcurrentUse(t *testing.T) {
	t.Parallel()
	// One scope is used by many graph nodes at once; its function table
	// is built lazily. Run with -race.
	base := &Scope{Data: newFakeData()}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scope := base
			if i%2 == 0 {
				scope = base.WithKey(InstanceKeyData{CountIndex: cty.NumberIntVal(int64(i))})
			}
			src := `upper(var.name)`
			if i%2 == 0 {
				src = `"${upper(var.name)}-${count.index}"`
			}
			if _, diags := scope.EvalExpr(parseExpr(t, src), cty.String); diags.HasErrors() {
				t.Errorf("goroutine %d: %s", i, diags.Error())
			}
		}()
	}
	wg.Wait()
}
