package jsonfunction

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/providers"
)

// FormatVersion is the format_version of the metadata functions document.
const FormatVersion = "1.0"

// Signature is one function's signature, its fields in Terraform's order.
type Signature struct {
	Description        string          `json:"description,omitempty"`
	Summary            string          `json:"summary,omitempty"`
	DeprecationMessage string          `json:"deprecation_message,omitempty"`
	ReturnType         json.RawMessage `json:"return_type"`
	Parameters         []*Parameter    `json:"parameters,omitempty"`
	VariadicParameter  *Parameter      `json:"variadic_parameter,omitempty"`
}

// Parameter is one parameter of a function.
type Parameter struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	IsNullable  bool            `json:"is_nullable,omitempty"`
	Type        json.RawMessage `json:"type"`
}

// Document is the whole "metadata functions -json" output.
type Document struct {
	FormatVersion      string                `json:"format_version"`
	FunctionSignatures map[string]*Signature `json:"function_signatures"`
}

func typeJSON(t cty.Type) json.RawMessage {
	if t.Equals(customdecode.ExpressionClosureType) {
		// can's and try's expressions, given unevaluated.
		return json.RawMessage(`"dynamic"`)
	}
	b, err := ctyjson.MarshalType(t)
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return b
}

// FromProvider renders a provider-defined function.
func FromProvider(decl providers.FunctionDecl) *Signature {
	param := func(p providers.FunctionParam) *Parameter {
		return &Parameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNullValue, Type: typeJSON(p.Type)}
	}
	s := &Signature{
		Description:        decl.Description,
		Summary:            decl.Summary,
		DeprecationMessage: decl.DeprecationMessage,
		ReturnType:         typeJSON(decl.ReturnType),
	}
	for _, p := range decl.Parameters {
		s.Parameters = append(s.Parameters, param(p))
	}
	if decl.VariadicParameter != nil {
		s.VariadicParameter = param(*decl.VariadicParameter)
	}
	return s
}

// FromCty renders a built-in function. Its return type is what the
// function returns for arguments of its parameters' types (one for a
// variadic parameter), or "dynamic" when that depends on the values.
func FromCty(f function.Function) *Signature {
	param := func(p function.Parameter) *Parameter {
		return &Parameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNull, Type: typeJSON(p.Type)}
	}
	s := &Signature{Description: f.Description(), ReturnType: typeJSON(ReturnType(f))}
	for _, p := range f.Params() {
		s.Parameters = append(s.Parameters, param(p))
	}
	if vp := f.VarParam(); vp != nil {
		s.VariadicParameter = param(*vp)
	}
	return s
}

// ReturnType is what f returns for arguments of its parameters' types, or
// dynamic when that depends on the values.
func ReturnType(f function.Function) (t cty.Type) {
	defer func() {
		if recover() != nil {
			t = cty.DynamicPseudoType
		}
	}()
	var args []cty.Type
	for _, p := range f.Params() {
		args = append(args, p.Type)
	}
	if vp := f.VarParam(); vp != nil {
		args = append(args, vp.Type)
	}
	rt, err := f.ReturnType(args)
	if err != nil {
		return cty.DynamicPseudoType
	}
	return rt
}

// Marshal renders the metadata functions document for a function table.
func Marshal(fns map[string]function.Function) ([]byte, error) {
	doc := Document{FormatVersion: FormatVersion, FunctionSignatures: map[string]*Signature{}}
	for name, f := range fns {
		sig := FromCty(f)
		if name == "templatestring" || name == "core::templatestring" {
			// It receives its template unevaluated, to insist on a
			// reference, but documents it as the string it must be, and
			// its result as a string, as Terraform does.
			sig.Parameters[0].Type = json.RawMessage(`"string"`)
			sig.ReturnType = json.RawMessage(`"string"`)
		}
		doc.FunctionSignatures[name] = sig
	}
	return json.Marshal(doc)
}
