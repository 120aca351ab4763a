package terraform

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

// functionDecls are the provider-defined functions of the built-in
// provider, called as provider::terraform::NAME, with Terraform 1.8's
// signatures.
func functionDecls() map[string]providers.FunctionDecl {
	return map[string]providers.FunctionDecl{
		"encode_tfvars": {
			Summary: "Produce a string representation of an object using the same syntax as for `.tfvars` files",
			Parameters: []providers.FunctionParam{{
				Name: "value", Type: cty.DynamicPseudoType,
				AllowUnknownValues: true, // to refine the unknown result
			}},
			ReturnType: cty.String,
		},
		"decode_tfvars": {
			Summary:    "Parse a string containing syntax like that used in a `.tfvars` file",
			Parameters: []providers.FunctionParam{{Name: "src", Type: cty.String}},
			ReturnType: cty.DynamicPseudoType,
		},
		"encode_expr": {
			Summary: "Produce a string representation of an arbitrary value using Terraform expression syntax",
			Parameters: []providers.FunctionParam{{
				Name: "value", Type: cty.DynamicPseudoType,
				AllowUnknownValues: true, AllowNullValue: true,
			}},
			ReturnType: cty.String,
		},
	}
}

var functionImpls = map[string]func(cty.Value) (cty.Value, error){
	"encode_tfvars": encodeTfvars,
	"decode_tfvars": decodeTfvars,
	"encode_expr":   encodeExpr,
}

// CallFunction implements providers.Interface.
func (p *Provider) CallFunction(_ context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	impl, ok := functionImpls[req.FunctionName]
	if !ok {
		return providers.CallFunctionResponse{Err: fmt.Errorf("the provider terraform.io/builtin/terraform has no function named %q", req.FunctionName)}
	}
	if len(req.Arguments) != 1 {
		return providers.CallFunctionResponse{Err: fmt.Errorf("function %q takes exactly one argument", req.FunctionName)}
	}
	v, err := impl(req.Arguments[0])
	if err != nil {
		zero := 0
		return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: err.Error(), Argument: &zero}}
	}
	return providers.CallFunctionResponse{Result: v}
}

// encodeTfvars writes an object's attributes (or a map's elements), in
// name order, as the arguments of a .tfvars file.
func encodeTfvars(v cty.Value) (cty.Value, error) {
	if v.IsNull() {
		return cty.NilVal, fmt.Errorf("cannot encode a null value in tfvars syntax")
	}
	if !v.IsWhollyKnown() {
		return cty.UnknownVal(cty.String).RefineNotNull(), nil
	}
	ty := v.Type()
	var keys []string
	switch {
	case ty.IsObjectType():
		for k := range ty.AttributeTypes() {
			keys = append(keys, k)
		}
	case ty.IsMapType():
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys = append(keys, k.AsString())
		}
	default:
		return cty.NilVal, fmt.Errorf("invalid value to encode: must be an object whose attribute names will become the encoded variable names")
	}
	sort.Strings(keys)
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, k := range keys {
		if !hclsyntax.ValidIdentifier(k) {
			return cty.NilVal, fmt.Errorf("invalid variable name %q: must be a valid identifier, per Terraform's rules for input variable declarations", k)
		}
		if ty.IsObjectType() {
			body.SetAttributeValue(k, v.GetAttr(k))
		} else {
			body.SetAttributeValue(k, v.Index(cty.StringVal(k)))
		}
	}
	return cty.StringVal(string(f.Bytes())), nil
}

// decodeTfvars parses .tfvars syntax into an object, evaluating each
// expression without variables or functions, as a .tfvars file is.
func decodeTfvars(v cty.Value) (cty.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return cty.NilVal, fmt.Errorf("source must be a known string")
	}
	f, diags := hclsyntax.ParseConfig([]byte(v.AsString()), "<decode_tfvars argument>", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("invalid tfvars syntax: %s", diags.Error())
	}
	attrs, diags := f.Body.JustAttributes()
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("invalid tfvars content: %s", diags.Error())
	}
	out := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		val, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			return cty.NilVal, fmt.Errorf("invalid expression for variable %q: %s", name, diags.Error())
		}
		out[name] = val
	}
	return cty.ObjectVal(out), nil
}

// encodeExpr writes any value as a Terraform expression.
func encodeExpr(v cty.Value) (cty.Value, error) {
	if !v.IsWhollyKnown() {
		ret := cty.UnknownVal(cty.String).RefineNotNull()
		// The grammar fixes the first character of some non-null values.
		if !v.Range().CouldBeNull() {
			ty := v.Type()
			switch {
			case ty.IsObjectType() || ty.IsMapType():
				ret = ret.Refine().StringPrefixFull("{").NewValue()
			case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
				ret = ret.Refine().StringPrefixFull("[").NewValue()
			case ty == cty.String:
				ret = ret.Refine().StringPrefixFull(`"`).NewValue()
			}
		}
		return ret, nil
	}
	return cty.StringVal(string(bytes.TrimSpace(hclwrite.TokensForValue(v).Bytes()))), nil
}
