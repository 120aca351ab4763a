package moduletest

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// testBody is the body of a test file's provider block as the module
// under test sees it: its expressions are evaluated in the test file's
// context (var for the file's variables, run for earlier runs' outputs),
// whatever context the engine decodes it in, and refer to nothing in the
// module.
type testBody struct {
	body hcl.Body
	ctx  *hcl.EvalContext
}

var _ hcl.Body = testBody{}

func (b testBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	c, diags := b.body.Content(schema)
	return b.wrap(c), diags
}

func (b testBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	c, rest, diags := b.body.PartialContent(schema)
	if rest != nil {
		rest = testBody{body: rest, ctx: b.ctx}
	}
	return b.wrap(c), rest, diags
}

func (b testBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.body.JustAttributes()
	return b.wrapAttrs(attrs), diags
}

func (b testBody) MissingItemRange() hcl.Range { return b.body.MissingItemRange() }

func (b testBody) wrap(c *hcl.BodyContent) *hcl.BodyContent {
	if c == nil {
		return nil
	}
	out := *c
	out.Attributes = b.wrapAttrs(c.Attributes)
	out.Blocks = make(hcl.Blocks, len(c.Blocks))
	for i, blk := range c.Blocks {
		nb := *blk
		nb.Body = testBody{body: blk.Body, ctx: b.ctx}
		out.Blocks[i] = &nb
	}
	return &out
}

func (b testBody) wrapAttrs(attrs hcl.Attributes) hcl.Attributes {
	if attrs == nil {
		return nil
	}
	out := make(hcl.Attributes, len(attrs))
	for name, a := range attrs {
		na := *a
		na.Expr = testExpr{Expression: a.Expr, ctx: b.ctx}
		out[name] = &na
	}
	return out
}

// testExpr evaluates its expression in the test file's context.
type testExpr struct {
	hcl.Expression
	ctx *hcl.EvalContext
}

func (e testExpr) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return e.Expression.Value(e.ctx)
}

// Variables is empty: what the expression refers to is in the test file,
// not in the module.
func (e testExpr) Variables() []hcl.Traversal { return nil }
