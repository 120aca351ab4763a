package main

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Provider-defined functions, called as provider::stratafw::NAME:
//
//   - upper(input) upper-cases a string; an empty one is an error of
//     argument 0.
//   - join(sep, parts...) joins its variadic string arguments.
//   - known(value) allows unknown values and tells whether its argument
//     is known.
//   - fail(message) always fails with message, naming no argument.

func (p *fwProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return upperFunc{} },
		func() function.Function { return joinFunc{} },
		func() function.Function { return knownFunc{} },
		func() function.Function { return failFunc{} },
	}
}

type upperFunc struct{}

func (upperFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "upper"
}

func (upperFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Upper-case a string",
		Parameters: []function.Parameter{function.StringParameter{Name: "input"}},
		Return:     function.StringReturn{},
	}
}

func (upperFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var in string
	resp.Error = req.Arguments.Get(ctx, &in)
	if resp.Error != nil {
		return
	}
	if in == "" {
		resp.Error = function.NewArgumentFuncError(0, "input must not be empty")
		return
	}
	resp.Error = resp.Result.Set(ctx, strings.ToUpper(in))
}

type joinFunc struct{}

func (joinFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "join"
}

func (joinFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:           "Join strings",
		Parameters:        []function.Parameter{function.StringParameter{Name: "sep"}},
		VariadicParameter: function.StringParameter{Name: "parts"},
		Return:            function.StringReturn{},
	}
}

func (joinFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var sep string
	var parts []string
	resp.Error = req.Arguments.Get(ctx, &sep, &parts)
	if resp.Error != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, strings.Join(parts, sep))
}

type knownFunc struct{}

func (knownFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "known"
}

func (knownFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Whether a value is known",
		Parameters: []function.Parameter{function.StringParameter{Name: "value", AllowUnknownValues: true, AllowNullValue: true}},
		Return:     function.BoolReturn{},
	}
}

func (knownFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var v types.String
	resp.Error = req.Arguments.Get(ctx, &v)
	if resp.Error != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, !v.IsUnknown())
}

type failFunc struct{}

func (failFunc) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "fail"
}

func (failFunc) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Always fail",
		Parameters: []function.Parameter{function.StringParameter{Name: "message"}},
		Return:     function.StringReturn{},
	}
}

func (failFunc) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var msg string
	resp.Error = req.Arguments.Get(ctx, &msg)
	if resp.Error == nil {
		resp.Error = function.NewFuncError(msg)
	}
}
