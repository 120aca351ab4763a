package views

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/providers/jsonfunction"
)

// JSONDiagnostic is a diagnostic as Terraform's machine-readable outputs
// describe it: `validate -json` and the diagnostic messages of the -json
// UI stream. The fields are in Terraform's order.
type JSONDiagnostic struct {
	Severity string       `json:"severity"`
	Summary  string       `json:"summary"`
	Detail   string       `json:"detail"`
	Address  string       `json:"address,omitempty"`
	Range    *JSONRange   `json:"range,omitempty"`
	Snippet  *JSONSnippet `json:"snippet,omitempty"`
}

// JSONRange is a source range: a file and two positions.
type JSONRange struct {
	Filename string  `json:"filename"`
	Start    JSONPos `json:"start"`
	End      JSONPos `json:"end"`
}

// JSONPos is a position in a source file.
type JSONPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// JSONSnippet is the source a diagnostic points at: the lines of its
// range, the block it is in, and where in the code the range starts and
// ends, and the values of the expression involved.
type JSONSnippet struct {
	Context              *string           `json:"context"`
	Code                 string            `json:"code"`
	StartLine            int               `json:"start_line"`
	HighlightStartOffset int               `json:"highlight_start_offset"`
	HighlightEndOffset   int               `json:"highlight_end_offset"`
	Values               []JSONValue       `json:"values"`
	FunctionCall         *JSONFunctionCall `json:"function_call,omitempty"`
}

// JSONFunctionCall describes the function call a diagnostic is about, as
// Terraform's snippets do.
type JSONFunctionCall struct {
	CalledAs  string        `json:"called_as"`
	Signature *JSONFunction `json:"signature,omitempty"`
}

// JSONFunction is a function's signature in a diagnostic.
type JSONFunction struct {
	Name          string              `json:"name"`
	Params        []JSONFunctionParam `json:"params"`
	VariadicParam *JSONFunctionParam  `json:"variadic_param,omitempty"`
	ReturnType    json.RawMessage     `json:"return_type"`
}

// JSONFunctionParam is one parameter of a JSONFunction.
type JSONFunctionParam struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

// NewJSONDiagnostic describes d, with a snippet from files (by file name)
// when its source is there.
func NewJSONDiagnostic(d *hcl.Diagnostic, files map[string]*hcl.File) JSONDiagnostic {
	out := JSONDiagnostic{Severity: "error", Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagWarning {
		out.Severity = "warning"
	}
	if obj, ok := d.Extra.(interface{ DiagnosticObject() string }); ok {
		out.Address = obj.DiagnosticObject()
	}
	if d.Subject == nil {
		return out
	}
	rng := widen(*d.Subject)
	out.Range = &JSONRange{
		Filename: rng.Filename,
		Start:    JSONPos{rng.Start.Line, rng.Start.Column, rng.Start.Byte},
		End:      JSONPos{rng.End.Line, rng.End.Column, rng.End.Byte},
	}
	out.Snippet = jsonSnippet(rng, d.Context, files[rng.Filename])
	if out.Snippet != nil {
		if vals := diagnosticValues(d); len(vals) > 0 {
			out.Snippet.Values = vals
		}
		out.Snippet.FunctionCall = jsonFunctionCall(d)
	}
	return out
}

// widen gives an empty range (a position, such as a block's opening
// brace) a width of one character, as Terraform's diagnostics do.
func widen(r hcl.Range) hcl.Range {
	if r.End.Byte == r.Start.Byte {
		r.End.Byte++
		r.End.Column++
	}
	return r
}

// jsonSnippet describes the source of f that d's subject rng (and its
// context) covers, or returns nil when the source is not at hand.
func jsonSnippet(rng hcl.Range, context *hcl.Range, f *hcl.File) *JSONSnippet {
	if f == nil || f.Bytes == nil {
		return nil
	}
	sn, ok := snippetOf(rng, context, f.Bytes)
	if !ok {
		return nil
	}
	out := &JSONSnippet{Code: sn.Code, StartLine: sn.StartLine, HighlightStartOffset: sn.HighlightStart, HighlightEndOffset: sn.HighlightEnd, Values: []JSONValue{}}
	if nav, ok := f.Nav.(interface{ ContextString(int) string }); ok {
		if cs := nav.ContextString(rng.Start.Byte - 1); cs != "" {
			out.Context = &cs
		}
	}
	return out
}

// jsonFunctionCall describes the function call of a diagnostic about one,
// with the function's signature when it is known.
func jsonFunctionCall(d *hcl.Diagnostic) *JSONFunctionCall {
	extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
	if !ok || extra.CalledFunctionName() == "" {
		return nil
	}
	name := extra.CalledFunctionName()
	out := &JSONFunctionCall{CalledAs: name}
	if d.EvalContext == nil {
		return out
	}
	f, ok := d.EvalContext.Functions[name]
	if !ok {
		return out
	}
	param := func(p function.Parameter) JSONFunctionParam {
		return JSONFunctionParam{Name: p.Name, Type: jsonType(p.Type)}
	}
	sig := &JSONFunction{Name: name, Params: []JSONFunctionParam{}, ReturnType: jsonType(jsonfunction.ReturnType(f))}
	for _, p := range f.Params() {
		sig.Params = append(sig.Params, param(p))
	}
	if vp := f.VarParam(); vp != nil {
		p := param(*vp)
		sig.VariadicParam = &p
	}
	out.Signature = sig
	return out
}

func jsonType(t cty.Type) json.RawMessage {
	if t.Equals(customdecode.ExpressionClosureType) {
		return json.RawMessage(`"dynamic"`)
	}
	b, err := ctyjson.MarshalType(t)
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return b
}
