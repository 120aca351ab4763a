package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// TestFile is one test file (.tftest.hcl or .tftest.json): the run blocks
// `strata test` executes against a module, in order, with the variables and
// provider configurations they share.
type TestFile struct {
	// Variables are the file-level variable values, by name.
	Variables map[string]hcl.Expression
	// Providers are provider configurations that replace or add to the
	// module's, keyed as in a module ("aws", "aws.east").
	Providers map[string]*Provider
	Runs      []*TestRun
	// Parallel is the test block's default for run blocks' parallel.
	Parallel bool
}

// TestCommand is what a run block does: plan, or plan and apply.
type TestCommand string

// The commands of a run block.
const (
	TestCommandApply TestCommand = "apply"
	TestCommandPlan  TestCommand = "plan"
)

// TestRun is one run block.
type TestRun struct {
	Name    string
	Command TestCommand
	// Mode is "normal" or "refresh-only" (plan_options.mode).
	Mode string
	// Refresh is false when plan_options sets refresh = false.
	Refresh bool
	Replace []hcl.Traversal
	Target  []hcl.Traversal
	// Variables override the file's and the command line's, by name.
	Variables map[string]hcl.Expression
	// Module, when set, replaces the module under test for this run (a
	// setup or helper module).
	Module *TestRunModule
	// Providers maps the module's provider names to the file's
	// configurations, as a module call's providers argument does.
	Providers      []PassedProvider
	Asserts        []*TestAssert
	ExpectFailures []hcl.Traversal
	// StateKey names the state the run uses; empty for the default (one
	// state per module).
	StateKey string
	// Parallel is set when the run may run at the same time as others.
	Parallel  bool
	DeclRange hcl.Range

	parallelSet bool
}

// TestRunModule is a run block's module block.
type TestRunModule struct {
	Source    string
	Version   string
	DeclRange hcl.Range
}

// TestAssert is one assert block.
type TestAssert struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

var testFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "test"},
		{Type: "mock_provider", LabelNames: []string{"name"}},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_module"},
	},
}

var testRunSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"},
		{Name: "state_key"}, {Name: "parallel"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variables"}, {Type: "plan_options"}, {Type: "assert"}, {Type: "module"},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
	},
}

// LoadTestFile parses and decodes a test file.
func (p *Parser) LoadTestFile(path string) (*TestFile, hcl.Diagnostics) {
	f, diags := p.ParseFile(path)
	if f == nil || diags.HasErrors() {
		return nil, diags
	}
	content, cdiags := f.Body.Content(testFileSchema)
	diags = append(diags, cdiags...)
	tf := &TestFile{Variables: map[string]hcl.Expression{}, Providers: map[string]*Provider{}}
	runs := map[string]*TestRun{}
	for _, block := range content.Blocks {
		switch block.Type {
		case "run":
			r, rdiags := decodeTestRun(block)
			diags = append(diags, rdiags...)
			if prev, ok := runs[r.Name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate \"run\" block names",
					Detail:   fmt.Sprintf("This test file already has a run block named %s, at %s.", r.Name, prev.DeclRange),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			runs[r.Name] = r
			tf.Runs = append(tf.Runs, r)
		case "variables":
			attrs, adiags := block.Body.JustAttributes()
			diags = append(diags, adiags...)
			for name, a := range attrs {
				tf.Variables[name] = a.Expr
			}
		case "provider":
			pc, pdiags := decodeProvider(block)
			diags = append(diags, pdiags...)
			diags = append(diags, checkDuplicate(tf.Providers, pc.moduleKey(), "provider configuration", pc.DeclRange)...)
			tf.Providers[pc.moduleKey()] = pc
		case "test":
			tc, tdiags := block.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "parallel"}}})
			diags = append(diags, tdiags...)
			if a, ok := tc.Attributes["parallel"]; ok {
				diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &tf.Parallel)...)
			}
		default:
			diags = append(diags, unsupportedTestBlock(block))
		}
	}
	for _, r := range tf.Runs {
		if !r.parallelSet {
			r.Parallel = tf.Parallel
		}
	}
	return tf, diags
}

// unsupportedTestBlock reports the mock and override blocks, which strata
// does not run yet.
func unsupportedTestBlock(block *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported test block",
		Detail:   fmt.Sprintf("strata test does not support %s blocks yet: provider mocks and overrides are not implemented. Run tests that need them with terraform test.", block.Type),
		Subject:  block.DefRange.Ptr(),
	}
}

func decodeTestRun(block *hcl.Block) (*TestRun, hcl.Diagnostics) {
	r := &TestRun{
		Name:      block.Labels[0],
		Command:   TestCommandApply,
		Mode:      "normal",
		Refresh:   true,
		Variables: map[string]hcl.Expression{},
		DeclRange: block.DefRange,
	}
	diags := checkName(r.Name, "run block", block.LabelRanges[0])
	content, cdiags := block.Body.Content(testRunSchema)
	diags = append(diags, cdiags...)
	if a, ok := content.Attributes["command"]; ok {
		switch kw := hcl.ExprAsKeyword(a.Expr); kw {
		case "apply", "plan":
			r.Command = TestCommand(kw)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid \"command\" keyword",
				Detail:   "The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
	}
	if a, ok := content.Attributes["providers"]; ok {
		pp, pdiags := decodePassedProviders(a)
		diags = append(diags, pdiags...)
		r.Providers = pp
	}
	if a, ok := content.Attributes["expect_failures"]; ok {
		travs, tdiags := decodeDependsOn(a)
		diags = append(diags, tdiags...)
		r.ExpectFailures = travs
	}
	if a, ok := content.Attributes["state_key"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &r.StateKey)...)
	}
	if a, ok := content.Attributes["parallel"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &r.Parallel)...)
		r.parallelSet = true
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "variables":
			attrs, adiags := b.Body.JustAttributes()
			diags = append(diags, adiags...)
			for name, a := range attrs {
				r.Variables[name] = a.Expr
			}
		case "plan_options":
			diags = append(diags, r.decodePlanOptions(b)...)
		case "assert":
			ac, adiags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
				{Name: "condition", Required: true}, {Name: "error_message", Required: true},
			}})
			diags = append(diags, adiags...)
			if adiags.HasErrors() {
				continue
			}
			r.Asserts = append(r.Asserts, &TestAssert{
				Condition:    ac.Attributes["condition"].Expr,
				ErrorMessage: ac.Attributes["error_message"].Expr,
				DeclRange:    b.DefRange,
			})
		case "module":
			mc, mdiags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
				{Name: "source", Required: true}, {Name: "version"},
			}})
			diags = append(diags, mdiags...)
			if mdiags.HasErrors() {
				continue
			}
			m := &TestRunModule{DeclRange: b.DefRange}
			diags = append(diags, gohcl.DecodeExpression(mc.Attributes["source"].Expr, nil, &m.Source)...)
			if a, ok := mc.Attributes["version"]; ok {
				diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &m.Version)...)
			}
			r.Module = m
		default:
			diags = append(diags, unsupportedTestBlock(b))
		}
	}
	return r, diags
}

func (r *TestRun) decodePlanOptions(b *hcl.Block) hcl.Diagnostics {
	c, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"},
	}})
	if a, ok := c.Attributes["mode"]; ok {
		switch kw := hcl.ExprAsKeyword(a.Expr); kw {
		case "normal", "refresh-only":
			r.Mode = kw
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid \"mode\" keyword",
				Detail:   "The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only.",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
	}
	if a, ok := c.Attributes["refresh"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &r.Refresh)...)
	}
	for name, dst := range map[string]*[]hcl.Traversal{"replace": &r.Replace, "target": &r.Target} {
		if a, ok := c.Attributes[name]; ok {
			travs, tdiags := decodeDependsOn(a)
			diags = append(diags, tdiags...)
			*dst = travs
		}
	}
	return diags
}

// IsTestFile reports whether name is a test file's name.
func IsTestFile(name string) bool {
	return strings.HasSuffix(name, ".tftest.hcl") || strings.HasSuffix(name, ".tftest.json")
}
