package convert

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// protoParameter is what the function parameter messages of both protocol
// versions have in common.
type protoParameter interface {
	GetName() string
	GetType() []byte
	GetAllowNullValue() bool
	GetAllowUnknownValues() bool
	GetDescription() string
}

func parameterFromProto(p protoParameter) (providers.FunctionParam, error) {
	ty, err := functionType(p.GetType())
	if err != nil {
		return providers.FunctionParam{}, fmt.Errorf("parameter %q: %w", p.GetName(), err)
	}
	return providers.FunctionParam{
		Name:               p.GetName(),
		Type:               ty,
		AllowNullValue:     p.GetAllowNullValue(),
		AllowUnknownValues: p.GetAllowUnknownValues(),
		Description:        p.GetDescription(),
	}, nil
}

func functionType(raw []byte) (cty.Type, error) {
	if len(raw) == 0 {
		return cty.NilType, fmt.Errorf("no type")
	}
	ty, err := ctyjson.UnmarshalType(raw)
	if err != nil {
		return cty.NilType, fmt.Errorf("invalid type %s: %w", raw, err)
	}
	return ty, nil
}

// protoFunction is what the function messages of both protocol versions
// have in common, with the parameter type left open.
type protoFunction[P protoParameter] interface {
	GetParameters() []P
	GetVariadicParameter() P
	GetSummary() string
	GetDescription() string
	GetDeprecationMessage() string
}

func functionFromProto[P protoParameter](f protoFunction[P], returnType []byte) (providers.FunctionDecl, error) {
	decl := providers.FunctionDecl{
		Summary:            f.GetSummary(),
		Description:        f.GetDescription(),
		DeprecationMessage: f.GetDeprecationMessage(),
	}
	for _, p := range f.GetParameters() {
		param, err := parameterFromProto(p)
		if err != nil {
			return decl, err
		}
		decl.Parameters = append(decl.Parameters, param)
	}
	// A nil message pointer behind the interface still answers the
	// getters; an absent variadic parameter has no type.
	if vp := f.GetVariadicParameter(); len(vp.GetType()) > 0 || vp.GetName() != "" {
		param, err := parameterFromProto(vp)
		if err != nil {
			return decl, fmt.Errorf("variadic %w", err)
		}
		decl.VariadicParameter = &param
	}
	ty, err := functionType(returnType)
	if err != nil {
		return decl, fmt.Errorf("return: %w", err)
	}
	decl.ReturnType = ty
	return decl, nil
}

// Function5 converts a protocol 5 function signature.
func Function5(f *tfplugin5.Function) (providers.FunctionDecl, error) {
	return functionFromProto[*tfplugin5.Function_Parameter](f, f.GetReturn().GetType())
}

// Function6 converts a protocol 6 function signature.
func Function6(f *tfplugin6.Function) (providers.FunctionDecl, error) {
	return functionFromProto[*tfplugin6.Function_Parameter](f, f.GetReturn().GetType())
}

// Functions5 converts the protocol 5 function signatures of a schema or
// GetFunctions response; each error names its function.
func Functions5(fs map[string]*tfplugin5.Function) (map[string]providers.FunctionDecl, []error) {
	out := make(map[string]providers.FunctionDecl, len(fs))
	var errs []error
	for _, name := range sortedKeys(fs) {
		decl, err := Function5(fs[name])
		if err != nil {
			errs = append(errs, fmt.Errorf("function %s: %w", name, err))
			continue
		}
		out[name] = decl
	}
	return out, errs
}

// Functions6 converts the protocol 6 function signatures of a schema or
// GetFunctions response; each error names its function.
func Functions6(fs map[string]*tfplugin6.Function) (map[string]providers.FunctionDecl, []error) {
	out := make(map[string]providers.FunctionDecl, len(fs))
	var errs []error
	for _, name := range sortedKeys(fs) {
		decl, err := Function6(fs[name])
		if err != nil {
			errs = append(errs, fmt.Errorf("function %s: %w", name, err))
			continue
		}
		out[name] = decl
	}
	return out, errs
}
