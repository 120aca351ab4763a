package funcs

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// ReplaceFunc searches a string for a substring and replaces each
// occurrence with a replacement string. A substring wrapped in forward
// slashes is treated as a regular expression, in which case the replacement
// may refer to capture groups as $1, ${name} and so on.
var ReplaceFunc = function.New(&function.Spec{
	Description: "Searches a given string for another given substring, and replaces each occurrence with a given replacement string. If the substring is wrapped in forward slashes, it is treated as a regular expression.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		str := args[0].AsString()
		substr := args[1].AsString()
		replace := args[2].AsString()

		if len(substr) > 1 && strings.HasPrefix(substr, "/") && strings.HasSuffix(substr, "/") {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(re.ReplaceAllString(str, replace)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, replace)), nil
	},
})

// makeAffixFunc builds startswith and endswith. check reports whether a
// string has the affix. When usePrefixRefinement is set, an unknown string
// whose refined known prefix already decides the answer gives a known
// result.
func makeAffixFunc(desc, affixName string, check func(str, affix string) bool, usePrefixRefinement bool) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params: []function.Parameter{
			{Name: "str", Type: cty.String, AllowUnknown: true},
			{Name: affixName, Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Bool),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			affix := args[1].AsString()
			if !args[0].IsKnown() {
				if !usePrefixRefinement {
					return cty.UnknownVal(cty.Bool), nil
				}
				// An unknown string may still have a known prefix.
				known := args[0].Range().StringPrefix()
				switch {
				case strings.HasPrefix(known, affix):
					return cty.True, nil
				case len(known) >= len(affix):
					return cty.False, nil
				default:
					return cty.UnknownVal(cty.Bool), nil
				}
			}
			return cty.BoolVal(check(args[0].AsString(), affix)), nil
		},
	})
}

// StartsWithFunc reports whether a string begins with a given prefix.
var StartsWithFunc = makeAffixFunc(
	"Determines if the input string starts with the given prefix.",
	"prefix", strings.HasPrefix, true,
)

// EndsWithFunc reports whether a string ends with a given suffix.
var EndsWithFunc = makeAffixFunc(
	"Determines if the input string ends with the given suffix.",
	"suffix", strings.HasSuffix, false,
)

// StrContainsFunc reports whether a string contains a given substring.
var StrContainsFunc = function.New(&function.Spec{
	Description: "Determines if the input string contains the given substring.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.Contains(args[0].AsString(), args[1].AsString())), nil
	},
})

// templateStringFilename names the template source in diagnostics produced
// by templatestring.
const templateStringFilename = "<templatestring argument>"

// MakeTemplateStringFunc returns the templatestring function, which renders
// a template obtained from elsewhere (a variable, local value, attribute,
// ...) with the given variables. funcsCb returns the functions available
// inside the template; the filesystem functions are not, as in Terraform.
//
// The template argument is received as an expression closure so that the
// function can insist on a direct reference: a literal template would have
// been rendered already by the time the function saw it, so templatestring
// rejects them with a hint to use a template expression instead. Its
// checks and messages are Terraform's.
func MakeTemplateStringFunc(funcsCb func() map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders a template string with the given variables.",
		Params: []function.Parameter{
			{Name: "template", Type: customdecode.ExpressionClosureType},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			closure := customdecode.ExpressionClosureFromVal(args[0])
			if err := checkTemplateStringExpr(closure.Expression); err != nil {
				return cty.UnknownVal(retType), err
			}
			tmplVal, diags := closure.Value()
			if diags.HasErrors() {
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid template expression: %s", diags.Error())
			}
			if !tmplVal.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if tmplVal.Type() != cty.String || tmplVal.IsNull() {
				// Exactly a string: a number or bool converted to one could
				// not hold any template sequence.
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid template value: a string is required")
			}
			tmplVal, tmplMarks := tmplVal.Unmark()
			expr, diags := hclsyntax.ParseTemplate([]byte(tmplVal.AsString()), templateStringFilename, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid template: %s", diags.Error())
			}
			ret, err := renderTemplate(expr, args[1], withoutFilesystemFuncs(funcsCb()))
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			ret, err = convert.Convert(ret, cty.String)
			if err != nil {
				return cty.UnknownVal(retType), fmt.Errorf("invalid template result: %s", err)
			}
			return ret.WithMarks(tmplMarks), nil
		},
	})
}

// filesystemFuncs are the functions that read the local filesystem, which
// templatestring templates may not call.
var filesystemFuncs = []string{
	"file", "fileexists", "fileset", "filebase64", "filebase64sha256", "filebase64sha512",
	"filemd5", "filesha1", "filesha256", "filesha512", "templatefile",
}

// withoutFilesystemFuncs returns a copy of fns in which the filesystem
// functions fail with Terraform's explanation.
func withoutFilesystemFuncs(fns map[string]function.Function) map[string]function.Function {
	ret := make(map[string]function.Function, len(fns))
	for name, fn := range fns {
		ret[name] = fn
	}
	for _, name := range filesystemFuncs {
		for _, n := range []string{name, CoreNamespace + name} {
			fn, ok := fns[n]
			if !ok {
				continue
			}
			ret[n] = function.New(&function.Spec{
				Params:   fn.Params(),
				VarParam: fn.VarParam(),
				Type: func(args []cty.Value) (cty.Type, error) {
					return cty.NilType, fmt.Errorf("cannot use filesystem access functions like %s in templatestring templates; consider passing the function result as a template variable instead", name)
				},
			})
		}
	}
	return ret
}

// checkTemplateStringExpr accepts only expressions that refer to a value
// defined elsewhere, with Terraform's messages for the rest.
func checkTemplateStringExpr(expr hcl.Expression) error {
	switch expr := expr.(type) {
	case *hclsyntax.TemplateWrapExpr:
		// An interpolation-only expression, as Terraform 0.11 required.
		return function.NewArgErrorf(0, "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax")
	case *hclsyntax.TemplateExpr:
		if len(expr.Parts) == 1 {
			if _, ok := expr.Parts[0].(*hclsyntax.LiteralValueExpr); ok {
				return function.NewArgErrorf(0, "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead")
			}
		}
		return function.NewArgErrorf(0, "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an inline template, consider using a plain template string expression")
	}
	if !isTemplateReference(expr) {
		return function.NewArgErrorf(0, "invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax")
	}
	return nil
}

// isTemplateReference reports whether expr refers to a value defined
// elsewhere: a reference, possibly indexed, or a splat of one.
func isTemplateReference(expr hcl.Expression) bool {
	switch expr := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return true
	case *hclsyntax.RelativeTraversalExpr:
		return isTemplateReference(expr.Source)
	case *hclsyntax.IndexExpr:
		return isTemplateReference(expr.Collection)
	case *hclsyntax.SplatExpr:
		return isTemplateReference(expr.Source)
	}
	return false
}

// FormatFunc and FormatListFunc are go-cty's format and formatlist with
// arguments of a not yet known type making the whole result unknown (of
// unknown type), as in the go-cty version Terraform 1.11 uses.
var (
	FormatFunc     = withParams(stdlib.FormatFunc, noDynamicVarParam)
	FormatListFunc = withParams(stdlib.FormatListFunc, noDynamicVarParam)
)

func noDynamicVarParam(_ []function.Parameter, vp *function.Parameter) {
	vp.AllowDynamicType = false
}
