package funcs

import (
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
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
// inside the template.
//
// The template argument is received as an expression closure so that the
// function can insist on a direct reference: a literal template would have
// been rendered already by the time the function saw it, so templatestring
// rejects them with a hint to use a template expression instead.
func MakeTemplateStringFunc(funcsCb func() map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders a template string with the given variables.",
		Params: []function.Parameter{
			{Name: "template", Type: customdecode.ExpressionClosureType},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			closure := customdecode.ExpressionClosureFromVal(args[0])
			if err := checkTemplateStringExpr(closure.Expression); err != nil {
				return cty.DynamicVal, err
			}
			tmplVal, diags := closure.Value()
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			tmplVal, err := convert.Convert(tmplVal, cty.String)
			if err != nil {
				return cty.DynamicVal, function.NewArgErrorf(0, "invalid template value: %s", err)
			}
			tmplVal, tmplMarks := tmplVal.Unmark()
			if tmplVal.IsNull() {
				return cty.DynamicVal, function.NewArgErrorf(0, "template must not be null")
			}
			if !tmplVal.IsKnown() {
				return cty.DynamicVal.WithMarks(tmplMarks), nil
			}

			expr, diags := hclsyntax.ParseTemplate([]byte(tmplVal.AsString()), templateStringFilename, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			ret, err := renderTemplate(expr, args[1], funcsCb())
			if err != nil {
				return cty.DynamicVal, err
			}
			return ret.WithMarks(tmplMarks), nil
		},
	})
}

// checkTemplateStringExpr accepts only expressions that refer to a value
// defined elsewhere.
func checkTemplateStringExpr(expr hcl.Expression) error {
	for {
		paren, ok := expr.(*hclsyntax.ParenthesesExpr)
		if !ok {
			break
		}
		expr = paren.Expression
	}
	switch expr.(type) {
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.IndexExpr:
		return nil
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateWrapExpr, *hclsyntax.LiteralValueExpr:
		return function.NewArgErrorf(0, "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead")
	default:
		return function.NewArgErrorf(0, "invalid template expression: must be a direct reference to a single string from elsewhere, containing valid template syntax")
	}
}
