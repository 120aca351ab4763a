package configs

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Early evaluation, as OpenTofu 1.8 has it: a module call's source and
// version may refer to input variables and local values, evaluated when
// the module is loaded, before anything is planned. Only what is static
// can be used: variables with a value given for the root module (-var,
// -var-file, variable files, TF_VAR_ environment variables) or a default,
// locals computed from them, path.module, path.root and path.cwd, and
// pure string and collection functions.

// SetRootVariables gives the values of the root module's input variables
// for early evaluation: f is called with the module loaded from dir (the
// root module) and returns the values given for it, by name. Modules
// loaded from other directories use their variables' defaults.
func (p *Parser) SetRootVariables(dir string, f func(*Module) map[string]cty.Value) {
	p.rootDir, p.rootVariables = filepath.Clean(dir), f
}

// staticFunctions are the functions early evaluation allows: pure ones
// with no access to files or the clock.
var staticFunctions = map[string]function.Function{
	"coalesce": stdlib.CoalesceFunc, "concat": stdlib.ConcatFunc, "format": stdlib.FormatFunc,
	"join": stdlib.JoinFunc, "lookup": stdlib.LookupFunc, "lower": stdlib.LowerFunc,
	"merge": stdlib.MergeFunc, "replace": stdlib.ReplaceFunc, "split": stdlib.SplitFunc,
	"substr": stdlib.SubstrFunc, "tostring": stdlib.MakeToFunc(cty.String), "trimprefix": stdlib.TrimPrefixFunc,
	"trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,
}

// staticScope evaluates expressions of one module with the static values
// only.
type staticScope struct {
	mod    *Module
	given  map[string]cty.Value
	locals map[string]cty.Value
	// evaluating holds the locals being evaluated, to report cycles.
	evaluating map[string]bool
	// sensitive allows sensitive variables: for the encryption block,
	// whose values are never recorded.
	sensitive bool
}

// EvalStatic evaluates an argument of the root module's encryption block
// (what names it for messages), with the values early evaluation has:
// input variables given for the root module or their defaults, locals
// computed from them, path values and pure functions. Unlike a backend
// argument, it may use sensitive variables (a passphrase): the value is
// used as a key and never written anywhere.
func (m *Module) EvalStatic(expr hcl.Expression, what string) (cty.Value, hcl.Diagnostics) {
	s := &staticScope{mod: m, given: m.staticVars, locals: map[string]cty.Value{}, evaluating: map[string]bool{}, sensitive: true}
	return s.eval(expr, what)
}

// hasStaticExprs reports whether the module has anything for early
// evaluation: a module call's source or version, or a backend argument,
// that refers to something.
func (m *Module) hasStaticExprs() bool {
	for _, mc := range m.ModuleCalls {
		if mc.sourceExpr != nil || mc.versionExpr != nil {
			return true
		}
	}
	if m.Encryption != nil {
		return true
	}
	if m.Backend != nil {
		attrs, _ := m.Backend.Config.JustAttributes()
		for _, a := range attrs {
			if len(a.Expr.Variables()) > 0 {
				return true
			}
		}
	}
	return false
}

// evalStaticCalls evaluates the source and version arguments of the
// module calls that refer to variables or locals. given are the root
// module's variable values, nil for other modules.
func (m *Module) evalStaticCalls(given map[string]cty.Value) hcl.Diagnostics {
	diags := m.evalStaticBackend(given)
	var names []string
	for name, mc := range m.ModuleCalls {
		if mc.sourceExpr != nil || mc.versionExpr != nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return diags
	}
	sort.Strings(names)
	s := &staticScope{mod: m, given: given, locals: map[string]cty.Value{}, evaluating: map[string]bool{}}
	for _, name := range names {
		mc := m.ModuleCalls[name]
		if attr := mc.sourceExpr; attr != nil {
			v, d := s.eval(attr.Expr, "module."+name+".source")
			diags = append(diags, d...)
			if !d.HasErrors() {
				diags = append(diags, mc.setSource(attr, v)...)
			}
		}
		if attr := mc.versionExpr; attr != nil {
			v, d := s.eval(attr.Expr, "module."+name+".version")
			diags = append(diags, d...)
			if !d.HasErrors() {
				diags = append(diags, mc.setVersion(attr, v, false)...)
			}
		}
	}
	return diags
}

// eval evaluates expr, which what needs, with the static values its
// references resolve to.
func (s *staticScope) eval(expr hcl.Expression, what string) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vars := map[string]cty.Value{}
	locals := map[string]cty.Value{}
	paths := map[string]cty.Value{}
	for _, trav := range expr.Variables() {
		root := trav.RootName()
		name := ""
		if len(trav) > 1 {
			if a, ok := trav[1].(hcl.TraverseAttr); ok {
				name = a.Name
			}
		}
		switch {
		case root == "var" && name != "":
			v, d := s.variable(name, trav.SourceRange(), what)
			diags = append(diags, d...)
			vars[name] = v
		case root == "local" && name != "":
			v, d := s.local(name, trav.SourceRange(), what)
			diags = append(diags, d...)
			locals[name] = v
		case root == "path" && (name == "module" || name == "root" || name == "cwd"):
			paths[name] = cty.StringVal(s.path(name))
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Dynamic value in static context",
				Detail:   fmt.Sprintf("%s is evaluated early, when the configuration is loaded, so it can refer only to input variables, local values and path.module, path.root or path.cwd, not to %s.", what, traversalString(trav)),
				Subject:  trav.SourceRange().Ptr(),
			})
		}
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars), "local": cty.ObjectVal(locals), "path": cty.ObjectVal(paths)},
		Functions: staticFunctions,
	}
	v, d := expr.Value(ctx)
	diags = append(diags, d...)
	if !diags.HasErrors() && !v.IsWhollyKnown() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unable to compute static value",
			Detail:   fmt.Sprintf("%s is evaluated early, when the configuration is loaded, and its value is not known then.", what),
			Subject:  expr.Range().Ptr(),
		})
	}
	return v, diags
}

func (s *staticScope) variable(name string, rng hcl.Range, what string) (cty.Value, hcl.Diagnostics) {
	decl, ok := s.mod.Variables[name]
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reference to undeclared input variable",
			Detail:   fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", name, name),
			Subject:  rng.Ptr(),
		}}
	}
	v, given := s.given[name]
	if !given || v == cty.NilVal || (v.IsNull() && !decl.Nullable) {
		v = decl.Default
	}
	if v == cty.NilVal {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Variable value required for early evaluation",
			Detail:   fmt.Sprintf("%s is evaluated early, when the configuration is loaded, and refers to var.%s, which has no default and no value given. Give it a value with -var, a variable file or a TF_VAR_%s environment variable, or a default.", what, name, name),
			Subject:  rng.Ptr(),
		}}
	}
	if (decl.Sensitive || decl.Ephemeral) && !s.sensitive {
		summary := "Sensitive value not allowed"
		if decl.Ephemeral {
			summary = "Ephemeral value not allowed"
		}
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail:   fmt.Sprintf("%s is evaluated early and recorded in plain text, so it cannot use var.%s.", what, name),
			Subject:  rng.Ptr(),
		}}
	}
	if cv, err := convert.Convert(v, decl.Type); err == nil {
		v = cv
	}
	return v, nil
}

func (s *staticScope) local(name string, rng hcl.Range, what string) (cty.Value, hcl.Diagnostics) {
	if v, ok := s.locals[name]; ok {
		return v, nil
	}
	l, ok := s.mod.Locals[name]
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reference to undeclared local value",
			Detail:   fmt.Sprintf("A local value with the name %q has not been declared.", name),
			Subject:  rng.Ptr(),
		}}
	}
	if s.evaluating[name] {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Circular reference",
			Detail:   fmt.Sprintf("local.%s refers to itself, through the locals %s needs.", name, what),
			Subject:  l.DeclRange.Ptr(),
		}}
	}
	s.evaluating[name] = true
	v, diags := s.eval(l.Expr, what)
	delete(s.evaluating, name)
	if !diags.HasErrors() {
		s.locals[name] = v
	}
	return v, diags
}

func (s *staticScope) path(name string) string {
	switch name {
	case "module":
		return filepath.ToSlash(s.mod.SourceDir)
	case "root":
		return "."
	}
	if s.mod.workDir != "" {
		return filepath.ToSlash(s.mod.workDir)
	}
	if wd, err := filepath.Abs("."); err == nil {
		return filepath.ToSlash(wd)
	}
	return "."
}

func traversalString(trav hcl.Traversal) string {
	out := trav.RootName()
	for _, step := range trav[1:] {
		switch st := step.(type) {
		case hcl.TraverseAttr:
			out += "." + st.Name
		default:
			return out
		}
	}
	return out
}

// evalStaticBackend evaluates the arguments of the backend block that
// refer to variables or locals (OpenTofu's early evaluation, as for module
// sources), and replaces the block's body by one of literal values, which
// the backend decodes as it decodes any other.
func (m *Module) evalStaticBackend(given map[string]cty.Value) hcl.Diagnostics {
	if m.Backend == nil {
		return nil
	}
	attrs, adiags := m.Backend.Config.JustAttributes()
	if adiags.HasErrors() {
		return nil // reported when the backend decodes its block
	}
	dynamic := false
	for _, a := range attrs {
		if len(a.Expr.Variables()) > 0 {
			dynamic = true
		}
	}
	if !dynamic {
		return nil
	}
	s := &staticScope{mod: m, given: given, locals: map[string]cty.Value{}, evaluating: map[string]bool{}}
	var diags hcl.Diagnostics
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, SrcRange: m.Backend.DeclRange, EndRange: m.Backend.DeclRange}
	for name, a := range attrs {
		var expr hclsyntax.Expression
		if len(a.Expr.Variables()) == 0 {
			if se, ok := a.Expr.(hclsyntax.Expression); ok {
				expr = se
			}
		}
		if expr == nil {
			v, d := s.eval(a.Expr, fmt.Sprintf("The backend argument %q", name))
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			expr = &hclsyntax.LiteralValueExpr{Val: v, SrcRange: a.Expr.Range()}
		}
		body.Attributes[name] = &hclsyntax.Attribute{Name: name, Expr: expr, SrcRange: a.Range, NameRange: a.NameRange}
	}
	if !diags.HasErrors() {
		m.Backend.Config = body
	}
	return diags
}
