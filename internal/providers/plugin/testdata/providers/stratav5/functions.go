package main

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Provider-defined functions: upper(input) upper-cases a string and
// reports an empty one as an error of argument 0; repeat(s, times...)
// joins s repeated by each count (a variadic number parameter).

func functions() map[string]*tfprotov5.Function {
	return map[string]*tfprotov5.Function{
		"upper": {
			Summary:    "Upper-case a string",
			Parameters: []*tfprotov5.FunctionParameter{{Name: "input", Type: strT}},
			Return:     &tfprotov5.FunctionReturn{Type: strT},
		},
		"repeat": {
			Summary:           "Repeat a string",
			Parameters:        []*tfprotov5.FunctionParameter{{Name: "s", Type: strT}},
			VariadicParameter: &tfprotov5.FunctionParameter{Name: "times", Type: numT},
			Return:            &tfprotov5.FunctionReturn{Type: strT},
		},
	}
}

func (s *server) GetFunctions(context.Context, *tfprotov5.GetFunctionsRequest) (*tfprotov5.GetFunctionsResponse, error) {
	return &tfprotov5.GetFunctionsResponse{Functions: functions()}, nil
}

func (s *server) CallFunction(_ context.Context, req *tfprotov5.CallFunctionRequest) (*tfprotov5.CallFunctionResponse, error) {
	fail := func(text string, arg *int64) (*tfprotov5.CallFunctionResponse, error) {
		return &tfprotov5.CallFunctionResponse{Error: &tfprotov5.FunctionError{Text: text, FunctionArgument: arg}}, nil
	}
	f, ok := functions()[req.Name]
	if !ok {
		return fail("no function named "+req.Name, nil)
	}
	var args []tftypes.Value
	for i, dv := range req.Arguments {
		var ty tftypes.Type = numT
		if i < len(f.Parameters) {
			ty = f.Parameters[i].Type
		}
		v, err := dv.Unmarshal(ty)
		if err != nil {
			idx := int64(i)
			return fail(err.Error(), &idx)
		}
		args = append(args, v)
	}
	in, _ := str(args[0])
	var out string
	switch req.Name {
	case "upper":
		if in == "" {
			zero := int64(0)
			return fail("input must not be empty", &zero)
		}
		out = strings.ToUpper(in)
	case "repeat":
		for _, a := range args[1:] {
			n, _ := num(a)
			k, _ := n.Int64()
			out += strings.Repeat(in, int(k))
		}
	}
	result, err := tfprotov5.NewDynamicValue(strT, tftypes.NewValue(strT, out))
	if err != nil {
		return fail(err.Error(), nil)
	}
	return &tfprotov5.CallFunctionResponse{Result: &result}, nil
}
