package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
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
	// MockProviders replace providers by mocks, keyed as Providers.
	MockProviders map[string]*TestMockProvider
	// Overrides apply to every run of the file.
	Overrides []*TestOverride
	// ModuleOverrides are override_module blocks for every run.
	ModuleOverrides []*TestModuleOverride
}

// TestModuleOverride is an override_module block: the module call at
// Target is not run, and its outputs are Outputs' attributes.
type TestModuleOverride struct {
	Target    hcl.Traversal
	Outputs   hcl.Expression
	DeclRange hcl.Range
}

// TestMockProvider is a mock_provider block: a provider whose resources
// and data sources are made up, with the real provider's schema.
type TestMockProvider struct {
	Name, Alias string
	// Source is a directory of .tfmock.hcl files with more mock_resource,
	// mock_data and override blocks.
	Source string
	// Resources and DataSources are mock_resource and mock_data blocks'
	// defaults, by type name.
	Resources, DataSources map[string]hcl.Expression
	// Overrides are the override blocks inside the mock_provider block.
	Overrides []*TestOverride
	// DuringPlan is the mock provider's override_during = plan: made-up
	// values are known when planning.
	DuringPlan bool
	// ResourceDuringPlan holds the override_during of mock_resource
	// blocks that set it, by type name: it wins over DuringPlan.
	ResourceDuringPlan map[string]bool
	DeclRange          hcl.Range
}

// TestOverride is an override_resource or override_data block: the
// object at Target is made up with Values, and its provider is not
// called.
type TestOverride struct {
	Target hcl.Traversal
	Values hcl.Expression
	// DuringPlan is set by override_during = plan: the values are known
	// when planning. Unset, the enclosing mock provider's setting holds.
	DuringPlan *bool
	DeclRange  hcl.Range
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
	// Overrides and ModuleOverrides apply to this run only.
	Overrides       []*TestOverride
	ModuleOverrides []*TestModuleOverride
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
	tf := &TestFile{Variables: map[string]hcl.Expression{}, Providers: map[string]*Provider{}, MockProviders: map[string]*TestMockProvider{}}
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
		case "mock_provider":
			mp, mdiags := p.decodeMockProvider(block)
			diags = append(diags, mdiags...)
			key := mp.Name
			if mp.Alias != "" {
				key += "." + mp.Alias
			}
			diags = append(diags, checkDuplicate(tf.MockProviders, key, "mock provider", mp.DeclRange)...)
			tf.MockProviders[key] = mp
		case "override_resource", "override_data", "override_module":
			diags = append(diags, decodeOverrideBlock(block, &tf.Overrides, &tf.ModuleOverrides)...)
		}
	}
	for _, r := range tf.Runs {
		if !r.parallelSet {
			r.Parallel = tf.Parallel
		}
	}
	return tf, diags
}

var mockProviderSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}, {Name: "override_during"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "mock_resource", LabelNames: []string{"type"}},
		{Type: "mock_data", LabelNames: []string{"type"}},
		{Type: "override_resource"}, {Type: "override_data"},
	},
}

// mockFileSchema is the schema of .tfmock.hcl files.
var mockFileSchema = &hcl.BodySchema{Blocks: mockProviderSchema.Blocks}

func (p *Parser) decodeMockProvider(block *hcl.Block) (*TestMockProvider, hcl.Diagnostics) {
	mp := &TestMockProvider{
		Name:        block.Labels[0],
		Resources:   map[string]hcl.Expression{},
		DataSources: map[string]hcl.Expression{},
		DeclRange:   block.DefRange,
	}
	content, diags := block.Body.Content(mockProviderSchema)
	if a, ok := content.Attributes["alias"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &mp.Alias)...)
	}
	if a, ok := content.Attributes["source"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &mp.Source)...)
	}
	if a, ok := content.Attributes["override_during"]; ok {
		during, odiags := decodeOverrideDuring(a)
		diags = append(diags, odiags...)
		mp.DuringPlan = during
	}
	diags = append(diags, mp.addBlocks(content.Blocks)...)
	if mp.Source != "" {
		diags = append(diags, p.loadMockSource(mp, block)...)
	}
	return mp, diags
}

// loadMockSource reads the .tfmock.hcl and .tfmock.json files in the
// mock provider's source directory, relative to the working directory.
func (p *Parser) loadMockSource(mp *TestMockProvider, block *hcl.Block) hcl.Diagnostics {
	entries, err := os.ReadDir(p.abs(mp.Source))
	if err != nil {
		err = renamed(err, mp.Source)
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read mock source",
			Detail:   fmt.Sprintf("The mock provider's source directory %s cannot be read: %s.", mp.Source, err),
			Subject:  block.DefRange.Ptr(),
		}}
	}
	var diags hcl.Diagnostics
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".tfmock.hcl") || strings.HasSuffix(name, ".tfmock.json")) {
			continue
		}
		f, fdiags := p.ParseFile(filepath.Join(mp.Source, name))
		diags = append(diags, fdiags...)
		if f == nil || fdiags.HasErrors() {
			continue
		}
		content, cdiags := f.Body.Content(mockFileSchema)
		diags = append(diags, cdiags...)
		diags = append(diags, mp.addBlocks(content.Blocks)...)
	}
	return diags
}

// addBlocks records mock_resource, mock_data and override blocks.
func (mp *TestMockProvider) addBlocks(blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range blocks {
		switch b.Type {
		case "mock_resource", "mock_data":
			c, cdiags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}, {Name: "override_during"}}})
			diags = append(diags, cdiags...)
			var expr hcl.Expression = hcl.StaticExpr(cty.EmptyObjectVal, b.DefRange)
			if a, ok := c.Attributes["defaults"]; ok {
				expr = a.Expr
			}
			if a, ok := c.Attributes["override_during"]; ok && b.Type == "mock_resource" {
				during, odiags := decodeOverrideDuring(a)
				diags = append(diags, odiags...)
				if mp.ResourceDuringPlan == nil {
					mp.ResourceDuringPlan = map[string]bool{}
				}
				mp.ResourceDuringPlan[b.Labels[0]] = during
			}
			if b.Type == "mock_resource" {
				mp.Resources[b.Labels[0]] = expr
			} else {
				mp.DataSources[b.Labels[0]] = expr
			}
		case "override_resource", "override_data":
			o, odiags := decodeOverride(b)
			diags = append(diags, odiags...)
			if o != nil {
				mp.Overrides = append(mp.Overrides, o)
			}
		}
	}
	return diags
}

// decodeOverride decodes an override_resource or override_data block.
func decodeOverride(b *hcl.Block) (*TestOverride, hcl.Diagnostics) {
	c, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "target", Required: true}, {Name: "values"}, {Name: "override_during"},
	}})
	if diags.HasErrors() {
		return nil, diags
	}
	trav, tdiags := absTraversalForExpr(c.Attributes["target"].Expr)
	diags = append(diags, tdiags...)
	if tdiags.HasErrors() {
		return nil, diags
	}
	isData := trav.RootName() == "data" || (len(trav) > 2 && traversalHasDataStep(trav))
	if want := b.Type == "override_data"; want != isData {
		what := "a managed resource"
		if want {
			what = "a data source"
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid override target",
			Detail:   fmt.Sprintf("The target of an %s block must be %s.", b.Type, what),
			Subject:  c.Attributes["target"].Expr.Range().Ptr(),
		})
		return nil, diags
	}
	o := &TestOverride{Target: trav, Values: hcl.StaticExpr(cty.EmptyObjectVal, b.DefRange), DeclRange: b.DefRange}
	if a, ok := c.Attributes["override_during"]; ok {
		during, odiags := decodeOverrideDuring(a)
		diags = append(diags, odiags...)
		o.DuringPlan = &during
	}
	if a, ok := c.Attributes["values"]; ok {
		o.Values = a.Expr
		diags = append(diags, checkObjectAttr(a, b.Type, "a")...)
	}
	return o, diags
}

// decodeKeyword decodes an argument that takes one of two keywords
// written without quotes, such as command = plan; it returns "" after
// reporting anything else.
func decodeKeyword(a *hcl.Attribute, first, second string) (string, hcl.Diagnostics) {
	if kw := hcl.ExprAsKeyword(a.Expr); kw == first || kw == second {
		return kw, nil
	}
	return "", hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %q keyword", a.Name),
		Detail:   fmt.Sprintf("The %q argument requires one of the following keywords without quotes: %s or %s.", a.Name, first, second),
		Subject:  a.Expr.Range().Ptr(),
	}}
}

// decodeOverrideBlock decodes an override_resource, override_data or
// override_module block into the list of its kind.
func decodeOverrideBlock(b *hcl.Block, resources *[]*TestOverride, modules *[]*TestModuleOverride) hcl.Diagnostics {
	if b.Type == "override_module" {
		o, diags := decodeModuleOverride(b)
		if o != nil {
			*modules = append(*modules, o)
		}
		return diags
	}
	o, diags := decodeOverride(b)
	if o != nil {
		*resources = append(*resources, o)
	}
	return diags
}

// decodeModuleOverride decodes an override_module block.
func decodeModuleOverride(b *hcl.Block) (*TestModuleOverride, hcl.Diagnostics) {
	c, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "target", Required: true}, {Name: "outputs"},
	}})
	if diags.HasErrors() {
		return nil, diags
	}
	trav, tdiags := absTraversalForExpr(c.Attributes["target"].Expr)
	diags = append(diags, tdiags...)
	if tdiags.HasErrors() {
		return nil, diags
	}
	if trav.RootName() != "module" {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid override target",
			Detail:   "The target of an override_module block must be a module call, such as module.network.",
			Subject:  c.Attributes["target"].Expr.Range().Ptr(),
		})
	}
	o := &TestModuleOverride{Target: trav, Outputs: hcl.StaticExpr(cty.EmptyObjectVal, b.DefRange), DeclRange: b.DefRange}
	if a, ok := c.Attributes["outputs"]; ok {
		o.Outputs = a.Expr
		diags = append(diags, checkObjectAttr(a, b.Type, "an")...)
	}
	return o, diags
}

// checkObjectAttr reports an override's values or outputs that is not an
// object, as terraform test does when it reads the file. Expressions that
// need functions are left to be evaluated later.
func checkObjectAttr(a *hcl.Attribute, blockName, article string) hcl.Diagnostics {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.Type().IsObjectType() || v.Type() == cty.DynamicPseudoType {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s attribute", a.Name),
		Detail:   fmt.Sprintf("%s blocks must specify %s %s attribute that is an object.", blockName, article, a.Name),
		Subject:  a.Expr.Range().Ptr(),
	}}
}

// decodeOverrideDuring decodes override_during: plan or apply, reported
// as whether values are made up when planning.
func decodeOverrideDuring(a *hcl.Attribute) (bool, hcl.Diagnostics) {
	switch hcl.ExprAsKeyword(a.Expr) {
	case "plan":
		return true, nil
	case "apply":
		return false, nil
	}
	return false, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid override_during value",
		Detail:   "The override_during attribute must be a value of plan or apply.",
		Subject:  a.Range.Ptr(),
	}}
}

// traversalHasDataStep reports whether a module-prefixed address names a
// data source (module.m.data.TYPE.NAME).
func traversalHasDataStep(trav hcl.Traversal) bool {
	for i, step := range trav {
		if a, ok := step.(hcl.TraverseAttr); ok && a.Name == "data" && i > 0 {
			if prev, ok := trav[i-1].(hcl.TraverseAttr); !ok || prev.Name != "module" {
				return true
			}
		}
	}
	return false
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
		kw, kdiags := decodeKeyword(a, "apply", "plan")
		diags = append(diags, kdiags...)
		if kw != "" {
			r.Command = TestCommand(kw)
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
			a := &TestAssert{
				Condition:    ac.Attributes["condition"].Expr,
				ErrorMessage: ac.Attributes["error_message"].Expr,
				DeclRange:    b.DefRange,
			}
			diags = append(diags, checkRuleRefers(&CheckRule{Condition: a.Condition}, "assert")...)
			r.Asserts = append(r.Asserts, a)
		case "override_resource", "override_data", "override_module":
			diags = append(diags, decodeOverrideBlock(b, &r.Overrides, &r.ModuleOverrides)...)
		case "module":
			mc, mdiags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
				{Name: "source", Required: true}, {Name: "version"},
			}})
			diags = append(diags, mdiags...)
			if mdiags.HasErrors() {
				continue
			}
			m := &TestRunModule{DeclRange: b.DefRange}
			srcExpr := mc.Attributes["source"].Expr
			sdiags := gohcl.DecodeExpression(srcExpr, nil, &m.Source)
			diags = append(diags, sdiags...)
			if !sdiags.HasErrors() && !IsLocalModuleSource(m.Source) && !addrs.IsModuleRegistrySource(m.Source) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid module source address",
					Detail:   "Only local or registry module sources are currently supported from within test run blocks.",
					Subject:  srcExpr.Range().Ptr(),
				})
				continue
			}
			if a, ok := mc.Attributes["version"]; ok {
				diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &m.Version)...)
			}
			r.Module = m
		}
	}
	return r, diags
}

func (r *TestRun) decodePlanOptions(b *hcl.Block) hcl.Diagnostics {
	c, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"},
	}})
	if a, ok := c.Attributes["mode"]; ok {
		kw, kdiags := decodeKeyword(a, "normal", "refresh-only")
		diags = append(diags, kdiags...)
		if kw != "" {
			r.Mode = kw
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

// TestModuleKey returns the module manifest key of the module of run
// block run in the test file at path (relative to the module under test,
// with slashes), as Terraform's init records it: test.tests.main.setup
// for run "setup" in tests/main.tftest.hcl.
func TestModuleKey(path, run string) string {
	name := strings.TrimSuffix(strings.TrimSuffix(path, ".tftest.hcl"), ".tftest.json")
	return "test." + strings.ReplaceAll(name, "/", ".") + "." + run
}

// IsTestFile reports whether name is a test file's name.
func IsTestFile(name string) bool {
	return strings.HasSuffix(name, ".tftest.hcl") || strings.HasSuffix(name, ".tftest.json")
}
