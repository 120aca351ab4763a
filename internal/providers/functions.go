package providers

import (
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// FunctionDecl is the signature of a provider-defined function, as the
// provider's schema declares it.
type FunctionDecl struct {
	Parameters []FunctionParam
	// VariadicParameter, when set, takes zero or more further arguments.
	VariadicParameter *FunctionParam
	ReturnType        cty.Type

	Summary            string
	Description        string
	DeprecationMessage string
}

// FunctionParam is one parameter of a provider-defined function.
type FunctionParam struct {
	Name string
	Type cty.Type
	// AllowNullValue lets a null argument reach the provider; otherwise a
	// null is an error before the call.
	AllowNullValue bool
	// AllowUnknownValues lets an argument that is not wholly known reach
	// the provider; otherwise the call is skipped and its result is
	// unknown.
	AllowUnknownValues bool
	Description        string
}

// CallFunctionRequest is the input of CallFunction. Each argument conforms
// to its parameter's type; variadic arguments follow the positional ones.
type CallFunctionRequest struct {
	FunctionName string
	Arguments    []cty.Value
}

// CallFunctionResponse is the result of CallFunction. Err is a
// *FunctionError when the function itself failed, or another error when
// the call could not be made.
type CallFunctionResponse struct {
	Result cty.Value
	Err    error
}

// FunctionError is the error a provider-defined function returns: its
// text, and the index of the argument that caused it when there is one.
type FunctionError struct {
	Text string
	// Argument is the index of the argument at fault, or nil.
	Argument *int
}

func (e *FunctionError) Error() string { return e.Text }

// Function returns a cty function with decl's signature whose
// implementation calls the function name through call (usually a
// provider's CallFunction). As Terraform promises providers, the call is
// skipped with an unknown result when an argument is not wholly known and
// its parameter does not allow unknown values, and a null argument is an
// error unless its parameter allows nulls. Sensitive and other marks are
// removed before the call and carried to the result by cty. A function
// error naming an argument becomes a function.ArgError, which points
// diagnostics at that argument's expression.
func (decl FunctionDecl) Function(name string, call func(CallFunctionRequest) CallFunctionResponse) function.Function {
	params := make([]function.Parameter, len(decl.Parameters))
	for i, p := range decl.Parameters {
		params[i] = p.ctyParameter()
	}
	var varParam *function.Parameter
	if decl.VariadicParameter != nil {
		vp := decl.VariadicParameter.ctyParameter()
		varParam = &vp
	}
	retType := decl.ReturnType
	if retType == cty.NilType {
		retType = cty.DynamicPseudoType
	}
	return function.New(&function.Spec{
		Description: decl.Summary,
		Params:      params,
		VarParam:    varParam,
		Type:        function.StaticReturnType(retType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			for i, arg := range args {
				p := varParam
				if i < len(params) {
					p = &params[i]
				}
				// cty only skips top-level unknowns; nested ones must
				// not reach a provider that did not ask for them.
				if !p.AllowUnknown && !arg.IsWhollyKnown() {
					return cty.UnknownVal(retType), nil
				}
				if !p.AllowNull && arg.IsNull() {
					return cty.UnknownVal(retType), function.NewArgErrorf(i, "argument must not be null")
				}
			}
			resp := call(CallFunctionRequest{FunctionName: name, Arguments: args})
			if resp.Err != nil {
				var fe *FunctionError
				if errors.As(resp.Err, &fe) && fe.Argument != nil {
					return cty.UnknownVal(retType), function.NewArgError(*fe.Argument, errors.New(fe.Text))
				}
				return cty.UnknownVal(retType), resp.Err
			}
			if resp.Result == cty.NilVal {
				return cty.UnknownVal(retType), fmt.Errorf("the provider returned no result and no error")
			}
			return resp.Result, nil
		},
	})
}

func (p FunctionParam) ctyParameter() function.Parameter {
	return function.Parameter{
		Name:      p.Name,
		Type:      p.Type,
		AllowNull: p.AllowNullValue,
		// A null literal has the dynamic type, so a dynamically typed
		// parameter must accept it.
		AllowDynamicType: p.Type == cty.DynamicPseudoType,
		AllowUnknown:     p.AllowUnknownValues,
	}
}
