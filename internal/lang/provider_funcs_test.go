package lang

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// funcData is a fakeData whose module declares the providers in fns
// (and "broken", whose functions cannot be had), counting the lookups.
type funcData struct {
	*fakeData
	fns map[string]map[string]function.Function

	mu   sync.Mutex
	asks map[string]int
}

func (d *funcData) ProviderFunctions(local string) (map[string]function.Function, bool, error) {
	d.mu.Lock()
	d.asks[local]++
	d.mu.Unlock()
	if local == "broken" {
		return nil, true, errors.New("provider crashed")
	}
	fns, ok := d.fns[local]
	return fns, ok, nil
}

func newFuncData() *funcData {
	failing := function.New(&function.Spec{
		Params: []function.Parameter{{Name: "a", Type: cty.String}, {Name: "b", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.NilVal, function.NewArgErrorf(1, "b is wrong")
		},
	})
	return &funcData{
		fakeData: newFakeData(),
		fns: map[string]map[string]function.Function{
			"p": {"upper": stdlib.UpperFunc, "fail": failing},
			"q": {"lower": stdlib.LowerFunc},
		},
		asks: map[string]int{},
	}
}

func TestProviderFunctionsExpr(t *testing.T) {
	tests := map[string]struct {
		src   string
		want  cty.Value
		diags []diag
	}{
		"call": {
			src:  `provider::p::upper(var.word)`,
			want: cty.StringVal("ABC"),
		},
		"nested namespaces": {
			src:  `provider::p::upper(provider::q::lower("X${var.name}"))`,
			want: cty.StringVal("XWEB"),
		},
		"in a template with built-ins": {
			src:  `"${upper(var.name)}-${provider::q::lower("ABC")}"`,
			want: cty.StringVal("WEB-abc"),
		},
		"unknown argument": {
			src:  `provider::p::upper(var.unknown)`,
			want: cty.UnknownVal(cty.String).RefineNotNull(),
		},
		"sensitive argument": {
			src:  `provider::p::upper(var.secret)`,
			want: cty.StringVal("HUNTER2").Mark("sensitive"),
		},
		"undeclared provider": {
			src:   `provider::nope::f(1)`,
			want:  cty.DynamicVal,
			diags: []diag{errDiag("Unknown provider function", "1,1-1,18")},
		},
		"no such function": {
			src:   `provider::p::lower("A")`,
			want:  cty.DynamicVal,
			diags: []diag{errDiag("Unknown provider function", "1,1-1,19")},
		},
		"provider fails": {
			src:   `provider::broken::f("A")`,
			want:  cty.DynamicVal,
			diags: []diag{errDiag("Failed to load provider functions", "1,1-1,20")},
		},
		"argument error": {
			src:   `provider::p::fail("a", "b")`,
			want:  cty.DynamicVal,
			diags: []diag{errDiag("Invalid function argument", "1,25-1,26")},
		},
		"wrong argument type": {
			src:   `provider::p::upper([])`,
			want:  cty.DynamicVal,
			diags: []diag{errDiag("Invalid function argument", "1,20-1,21")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			scope := &Scope{Data: newFuncData()}
			got, diags := scope.EvalExpr(parseExpr(t, tc.src), cty.DynamicPseudoType)
			assertDiags(t, diags, tc.diags)
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestProviderFunctionsDetail(t *testing.T) {
	scope := &Scope{Data: newFuncData()}
	_, diags := scope.EvalExpr(parseExpr(t, `provider::nope::f(1)`), cty.DynamicPseudoType)
	want := `There is no function named "provider::nope::f". Ensure that provider name "nope" is declared in this module's required_providers block, and that this provider offers a function named "f".`
	if len(diags) != 1 || diags[0].Detail != want {
		t.Errorf("wrong detail:\n%s", diags.Error())
	}
	_, diags = scope.EvalExpr(parseExpr(t, `provider::p::nope(1)`), cty.DynamicPseudoType)
	want = `The function "nope" is not available from the provider "p".`
	if len(diags) != 1 || diags[0].Detail != want {
		t.Errorf("wrong detail:\n%s", diags.Error())
	}
	_, diags = scope.EvalExpr(parseExpr(t, `provider::broken::f(1)`), cty.DynamicPseudoType)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "provider crashed") {
		t.Errorf("wrong detail:\n%s", diags.Error())
	}
}

// TestProviderFunctionsCached checks that a module instance asks for a
// provider's functions once, however many scopes and instances evaluate
// calls into it, and that another module instance asks again.
func TestProviderFunctionsCached(t *testing.T) {
	d := newFuncData()
	scope := &Scope{Data: d}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s := scope.WithKey(InstanceKeyData{CountIndex: cty.NumberIntVal(int64(i))})
			got, diags := s.EvalExpr(parseExpr(t, `provider::p::upper("a${count.index}")`), cty.String)
			if diags.HasErrors() || got.AsString() != "A"+cty.NumberIntVal(int64(i)).AsBigFloat().String() {
				t.Errorf("got %#v, %s", got, diags.Error())
			}
		}(i)
	}
	wg.Wait()
	if d.asks["p"] != 1 {
		t.Errorf("provider p asked %d times, want once", d.asks["p"])
	}
	other := newFuncData()
	if _, diags := scope.WithData(other).EvalExpr(parseExpr(t, `provider::p::upper("a")`), cty.String); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if other.asks["p"] != 1 {
		t.Errorf("another module instance asked %d times, want once", other.asks["p"])
	}
}

func TestProviderFunctionsBlock(t *testing.T) {
	t.Run("native syntax with dynamic blocks", func(t *testing.T) {
		body := parseBody(t, `
name = provider::p::upper(var.name)
dynamic "setting" {
  for_each = provider::q::lower("A") == "a" ? ["x"] : []
  content {
    name = provider::p::upper(setting.value)
  }
}
`)
		got, diags := (&Scope{Data: newFuncData()}).EvalBlock(body, testSchema)
		assertDiags(t, diags, nil)
		if v := got.GetAttr("name"); !v.RawEquals(cty.StringVal("WEB")) {
			t.Errorf("name = %#v", v)
		}
		settings := got.GetAttr("setting")
		if settings.LengthInt() != 1 || !settings.Index(cty.NumberIntVal(0)).GetAttr("name").RawEquals(cty.StringVal("X")) {
			t.Errorf("setting = %#v", settings)
		}
	})
	t.Run("JSON syntax", func(t *testing.T) {
		body := parseJSONBody(t, `{"name": "${provider::p::upper(var.name)}"}`)
		got, diags := (&Scope{Data: newFuncData()}).EvalBlock(body, testSchema)
		assertDiags(t, diags, nil)
		if v := got.GetAttr("name"); !v.RawEquals(cty.StringVal("WEB")) {
			t.Errorf("name = %#v", v)
		}
	})
	t.Run("undeclared", func(t *testing.T) {
		body := parseBody(t, `name = provider::nope::upper(var.name)`)
		_, diags := (&Scope{Data: newFuncData()}).EvalBlock(body, testSchema)
		assertDiags(t, diags, []diag{errDiag("Unknown provider function", "1,8-1,29")})
	})
}

// A Data that cannot resolve provider functions leaves every provider::
// namespace unknown.
func TestProviderFunctionsWithoutResolver(t *testing.T) {
	_, diags := (&Scope{Data: newFakeData()}).EvalExpr(parseExpr(t, `provider::p::upper("a")`), cty.DynamicPseudoType)
	assertDiags(t, diags, []diag{errDiag("Unknown provider function", "1,1-1,19")})
}
