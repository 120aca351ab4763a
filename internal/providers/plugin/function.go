package plugin

import (
	"context"
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

// CallFunction calls CallFunction. The arguments are encoded with the
// types of the parameters the provider's schema declares (the variadic
// parameter's for those past the positional ones) and the result is
// decoded with the declared return type. A function error comes back as
// a *providers.FunctionError; any other failure (no such function, an
// encoding problem, a crashed plugin) as a plain error.
func (p *Client) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	set, diags := p.schema(ctx)
	if diags.HasErrors() {
		return providers.CallFunctionResponse{Err: diagError(diags)}
	}
	decl, ok := set.resp.Functions[req.FunctionName]
	if !ok {
		return providers.CallFunctionResponse{Err: fmt.Errorf("the provider %s has no function named %q", p.name, req.FunctionName)}
	}
	retType := decl.ReturnType
	resp := providers.CallFunctionResponse{Result: cty.UnknownVal(retType)}
	args := make([]dynVal, len(req.Arguments))
	var enc encoder
	for i, arg := range req.Arguments {
		var param *providers.FunctionParam
		switch {
		case i < len(decl.Parameters):
			param = &decl.Parameters[i]
		case decl.VariadicParameter != nil:
			param = decl.VariadicParameter
		default:
			resp.Err = fmt.Errorf("function %q takes %d arguments, not %d", req.FunctionName, len(decl.Parameters), len(req.Arguments))
			return resp
		}
		args[i] = enc.encode(fmt.Sprintf("argument %d (%s)", i+1, param.Name), arg, param.Type)
	}
	if enc.diags.HasErrors() {
		resp.Err = diagError(enc.diags)
		return resp
	}
	wresp, err := p.wire.callFunction(ctx, req.FunctionName, args)
	if err != nil {
		resp.Err = diagError(p.callError(ctx, "CallFunction", err))
		return resp
	}
	if wresp.err != nil {
		resp.Err = wresp.err
		return resp
	}
	var ddiags providers.Diagnostics
	resp.Result = p.decode(&ddiags, "function result", wresp.result, retType)
	if ddiags.HasErrors() {
		resp.Result = cty.UnknownVal(retType)
		resp.Err = diagError(ddiags)
	}
	return resp
}

// GetFunctions calls GetFunctions, which returns the same function
// signatures as GetProviderSchema without the rest of the schema.
func (p *Client) GetFunctions(ctx context.Context) (map[string]providers.FunctionDecl, providers.Diagnostics) {
	fns, diags, err := p.wire.getFunctions(ctx)
	if fns == nil && diags == nil && err != nil {
		return nil, p.callError(ctx, "GetFunctions", err)
	}
	if err != nil {
		diags = diags.Errorf("Invalid provider schema",
			"The provider %s returned function signatures strata cannot use: %s. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, err)
	}
	return fns, diags
}

// diagError turns error diagnostics into one error for a function call,
// whose failures HCL reports as errors.
func diagError(diags providers.Diagnostics) error {
	var errs []error
	for _, d := range diags {
		if d.Severity != providers.Error {
			continue
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		errs = append(errs, errors.New(msg))
	}
	return errors.Join(errs...)
}
