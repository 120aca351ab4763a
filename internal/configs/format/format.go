package format

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Source formats one HCL configuration file (.tf, .tfvars, .tftest.hcl) the
// way "terraform fmt" does, returning the formatted bytes, or diagnostics
// (with file/line ranges) if the file does not parse.
//
// filename is used only to label diagnostics; every file is treated as HCL
// native syntax. When the returned diagnostics contain errors the returned
// byte slice is nil. A successful result may still carry warnings.
func Source(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	// The full parser is stricter than hclwrite's, which accepts some inputs
	// that are not valid configuration. Refusing to format a file that does
	// not parse avoids drastic rewrites of text the user then has to untangle.
	_, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}

	f, wdiags := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	diags = append(diags, wdiags...)
	if diags.HasErrors() {
		return nil, diags
	}

	normalizeBody(f.Body(), nil)

	// File.Bytes applies hclwrite's whitespace formatting to the whole
	// token stream, including the tokens substituted by normalizeBody.
	return f.Bytes(), diags
}

// normalizeBody applies the Terraform-specific rewrites to the attributes of
// body and, recursively, to its nested blocks. path holds the types of the
// blocks enclosing body, outermost first.
func normalizeBody(body *hclwrite.Body, path []string) {
	inVariable := len(path) == 1 && path[0] == "variable"

	for name, attr := range body.Attributes() {
		tokens := attr.Expr().BuildTokens(nil)
		var out hclwrite.Tokens
		var changed bool
		if inVariable && name == "type" {
			out, changed = normalizeTypeExpr(tokens)
		} else {
			out, changed = unwrapInterpolation(tokens)
		}
		if changed {
			body.SetAttributeRaw(name, out)
		}
	}

	for _, block := range body.Blocks() {
		// Rewriting the labels from their decoded values drops anything
		// unusual between them (such as inline comments) and switches
		// unquoted HCL 1 style labels to the quoted form.
		block.SetLabels(block.Labels())

		inner := make([]string, len(path), len(path)+1)
		copy(inner, path)
		normalizeBody(block.Body(), append(inner, block.Type()))
	}
}

// normalizeTypeExpr rewrites the legacy type constraint forms accepted by
// Terraform 0.11 and earlier into their modern equivalents. It reports
// whether a rewrite happened.
func normalizeTypeExpr(tokens hclwrite.Tokens) (hclwrite.Tokens, bool) {
	switch {
	case len(tokens) == 1 && tokens[0].Type == hclsyntax.TokenIdent:
		// A bare collection keyword without an element type.
		switch kw := string(tokens[0].Bytes); kw {
		case "list", "map", "set":
			return collectionType(kw, "any"), true
		}

	case len(tokens) == 3 &&
		tokens[0].Type == hclsyntax.TokenOQuote &&
		tokens[1].Type == hclsyntax.TokenQuotedLit &&
		tokens[2].Type == hclsyntax.TokenCQuote:
		// A quoted type name, as written before type expressions existed.
		// Only the three names that version supported are recognised, and
		// they are compared as written, escapes and all.
		switch name := string(tokens[1].Bytes); name {
		case "string":
			return hclwrite.Tokens{identToken(name)}, true
		case "list", "map":
			return collectionType(name, "string"), true
		}
	}
	return tokens, false
}

// collectionType returns the tokens of the type expression kind(elem).
func collectionType(kind, elem string) hclwrite.Tokens {
	return hclwrite.Tokens{
		identToken(kind),
		{Type: hclsyntax.TokenOParen, Bytes: []byte("(")},
		identToken(elem),
		{Type: hclsyntax.TokenCParen, Bytes: []byte(")")},
	}
}

func identToken(name string) *hclwrite.Token {
	return &hclwrite.Token{Type: hclsyntax.TokenIdent, Bytes: []byte(name)}
}

// unwrapInterpolation turns an expression that is a quoted template made of
// exactly one interpolation, such as "${var.foo}", into the interpolated
// expression itself. It reports whether a rewrite happened.
//
// Any template strip markers are discarded along with the interpolation
// delimiters, which is harmless because there is no surrounding literal text
// for them to strip.
func unwrapInterpolation(tokens hclwrite.Tokens) (hclwrite.Tokens, bool) {
	n := len(tokens)
	if n < 5 ||
		tokens[0].Type != hclsyntax.TokenOQuote ||
		tokens[1].Type != hclsyntax.TokenTemplateInterp ||
		tokens[n-2].Type != hclsyntax.TokenTemplateSeqEnd ||
		tokens[n-1].Type != hclsyntax.TokenCQuote {
		return tokens, false
	}
	inner := tokens[2 : n-2]

	// The outer tokens alone do not prove that there is only one
	// interpolation: "${a}${b}" has the same first and last two tokens. Such
	// a template has the end of the first sequence and the start of the next
	// one outside of any quoted string nested in the expression. The check
	// deliberately ignores nesting other than quotes, so some unusual
	// single-interpolation templates (a heredoc inside the interpolation,
	// say) are left alone, which matches terraform fmt.
	quoteDepth := 0
	for _, tok := range inner {
		switch tok.Type {
		case hclsyntax.TokenOQuote:
			quoteDepth++
		case hclsyntax.TokenCQuote:
			quoteDepth--
		case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateSeqEnd:
			if quoteDepth == 0 {
				return tokens, false
			}
		}
	}

	// Newlines just inside the delimiters would, once the delimiters are
	// gone, end the attribute early.
	for len(inner) > 0 && inner[0].Type == hclsyntax.TokenNewline {
		inner = inner[1:]
	}
	for len(inner) > 0 && inner[len(inner)-1].Type == hclsyntax.TokenNewline {
		inner = inner[:len(inner)-1]
	}
	if len(inner) == 0 {
		return tokens, false
	}

	// An expression spanning several lines was fine inside the template
	// delimiters but needs parentheses to remain a single expression once
	// they are gone, unless it is already fully parenthesised.
	if hasNewline(inner) && !parenthesized(inner) {
		wrapped := make(hclwrite.Tokens, 0, len(inner)+2)
		wrapped = append(wrapped, &hclwrite.Token{Type: hclsyntax.TokenOParen, Bytes: []byte("(")})
		wrapped = append(wrapped, inner...)
		wrapped = append(wrapped, &hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")})
		return wrapped, true
	}
	return inner, true
}

func hasNewline(tokens hclwrite.Tokens) bool {
	for _, tok := range tokens {
		if tok.Type == hclsyntax.TokenNewline {
			return true
		}
	}
	return false
}

// parenthesized reports whether tokens is a single parenthesised expression,
// that is, whether the opening parenthesis at the start is closed by the
// parenthesis at the end. (Terraform only checks the first and last tokens,
// which turns "${(a)\n+ (b)}" into invalid syntax; this does not.)
func parenthesized(tokens hclwrite.Tokens) bool {
	n := len(tokens)
	if n < 2 || tokens[0].Type != hclsyntax.TokenOParen || tokens[n-1].Type != hclsyntax.TokenCParen {
		return false
	}
	depth := 0
	for i, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenOParen:
			depth++
		case hclsyntax.TokenCParen:
			depth--
			if depth == 0 && i != n-1 {
				return false
			}
		}
	}
	return depth == 0
}
