package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding/ianaindex"
)

// stringMarks unmarks a string argument, returning the string, a version
// safe to show in error messages, and the argument's marks.
func stringMarks(v cty.Value) (s, display string, marks cty.ValueMarks) {
	raw, marks := v.Unmark()
	s = raw.AsString()
	display = fmt.Sprintf("%q", s)
	if _, sensitive := marks[SensitiveMark]; sensitive {
		display = "(sensitive value)"
	}
	return s, display, marks
}

// Base64DecodeFunc decodes a Base64 string whose decoded bytes must be
// valid UTF-8.
var Base64DecodeFunc = function.New(&function.Spec{
	Description: "Takes a Base64 encoded string and returns the original string.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowMarked: true},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		s, display, marks := stringMarks(args[0])
		decoded, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", display)
		}
		if !utf8.Valid(decoded) {
			return cty.UnknownVal(cty.String), fmt.Errorf("the result of decoding the provided string is not valid UTF-8")
		}
		return cty.StringVal(string(decoded)).WithMarks(marks), nil
	},
})

// Base64EncodeFunc encodes a string's UTF-8 bytes as Base64.
var Base64EncodeFunc = function.New(&function.Spec{
	Description: "Applies Base64 encoding to a string.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

// Base64GzipFunc gzip-compresses a string and returns the result encoded
// as Base64.
var Base64GzipFunc = function.New(&function.Spec{
	Description: "Compresses the given string with gzip and then encodes the result to Base64.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		if _, err := w.Write([]byte(args[0].AsString())); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to write gzip raw data: %w", err)
		}
		// Flushing before closing matches the byte stream Terraform emits.
		if err := w.Flush(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to flush gzip writer: %w", err)
		}
		if err := w.Close(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to close gzip writer: %w", err)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(buf.Bytes())), nil
	},
})

// URLEncodeFunc applies URL query encoding to a string.
var URLEncodeFunc = function.New(&function.Spec{
	Description: "Applies URL encoding to a given string.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// TextEncodeBase64Func encodes a string in a named character encoding and
// returns the resulting bytes as Base64.
var TextEncodeBase64Func = function.New(&function.Spec{
	Description: "Encodes the input string using the given character encoding and returns the result Base64 encoded.",
	Params: []function.Parameter{
		{Name: "string", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		encName := args[1].AsString()
		enc, err := ianaindex.IANA.Encoding(encName)
		if err != nil || enc == nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this Terraform version", encName)
		}
		canonical, err := ianaindex.IANA.Name(enc)
		if err != nil {
			canonical = encName
		}
		encoded, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", canonical)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(encoded)), nil
	},
})

// TextDecodeBase64Func decodes Base64 data and interprets the bytes in a
// named character encoding, returning the text as a string.
var TextDecodeBase64Func = function.New(&function.Spec{
	Description: "Decodes a string that was previously Base64-encoded, and then interprets the result as characters in a specified character encoding.",
	Params: []function.Parameter{
		{Name: "source", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		encName := args[1].AsString()
		enc, err := ianaindex.IANA.Encoding(encName)
		if err != nil || enc == nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this Terraform version", encName)
		}
		canonical, err := ianaindex.IANA.Name(enc)
		if err != nil {
			canonical = encName
		}

		decoded, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			if off, ok := err.(base64.CorruptInputError); ok {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given value is has an invalid base64 symbol at offset %d", int64(off))
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid source string: %s", err)
		}

		text, err := enc.NewDecoder().Bytes(decoded)
		if err != nil || bytes.ContainsRune(text, utf8.RuneError) {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", canonical)
		}
		return cty.StringVal(string(text)), nil
	},
})
