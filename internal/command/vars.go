package command

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/pflag"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
)

// varFlags collects -var and -var-file in command-line order, because
// later ones override earlier ones.
type varFlags struct {
	items *[]varItem
	input bool
	// undeclared keeps the values given for variables the root module
	// does not declare, without a warning: terraform test hands them to
	// the test files.
	undeclared bool
}

type varItem struct {
	file  bool
	value string
}

type varValue struct {
	items *[]varItem
	file  bool
}

func (v *varValue) String() string { return "" }
func (v *varValue) Set(s string) error {
	*v.items = append(*v.items, varItem{file: v.file, value: s})
	return nil
}
func (v *varValue) Type() string { return "stringArray" }

func (f *varFlags) register(fs *pflag.FlagSet) {
	f.registerValues(fs)
	fs.BoolVar(&f.input, "input", true, "Ask for input for variables if not directly set.")
}

// registerValues registers -var and -var-file only, for init, whose -input
// is about more than variables.
func (f *varFlags) registerValues(fs *pflag.FlagSet) {
	f.items = &[]varItem{}
	fs.Var(&varValue{items: f.items}, "var", "Set a value for one of the input variables in the root module\nof the configuration, as NAME=VALUE. Use this option more than once\nto set more than one variable.")
	fs.Var(&varValue{items: f.items, file: true}, "var-file", "Load variable values from the given file, in addition to the\ndefault files terraform.tfvars and *.auto.tfvars. Use this option\nmore than once to include more than one variables file.")
}

// collectVariables gathers root variable values from, in increasing
// precedence: TF_VAR_ environment variables, terraform.tfvars(.json),
// *.auto.tfvars(.json), and -var / -var-file in command-line order. When
// input is allowed, required variables still missing are asked for.
func collectVariables(d *Deps, mod *configs.Module, p *configs.Parser, f *varFlags, promptMissing bool) (map[string]engine.InputValue, hcl.Diagnostics) {
	vals := map[string]engine.InputValue{}
	var diags hcl.Diagnostics
	keep := f != nil && f.undeclared
	// Environment.
	for _, kv := range d.environ() {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "TF_VAR_") {
			continue
		}
		name = strings.TrimPrefix(name, "TF_VAR_")
		decl, ok := mod.Variables[name]
		if !ok && keep {
			vals[name] = engine.InputValue{Value: parseUndeclaredValue(value)}
			continue
		}
		if !ok {
			continue
		}
		v, vdiags := parseVarValue(decl, value, "environment variable TF_VAR_"+name)
		diags = append(diags, vdiags...)
		vals[name] = engine.InputValue{Value: v, Via: "the TF_VAR_" + name + " environment variable"}
	}
	// Automatic files.
	for _, name := range autoVarFiles(p.Abs, ".") {
		diags = append(diags, loadVarFile(p, mod, name, vals, keep)...)
	}
	// Command line.
	if f != nil {
		for _, it := range *f.items {
			if it.file {
				diags = append(diags, loadVarFile(p, mod, it.value, vals, keep)...)
				continue
			}
			name, raw, ok := strings.Cut(it.value, "=")
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid -var option",
					Detail:   fmt.Sprintf("The given -var option %q is not correctly specified. It must be a variable name and value separated by an equals sign, like -var=\"key=value\".", it.value),
				})
				continue
			}
			name = strings.TrimSpace(name)
			decl, declared := mod.Variables[name]
			if !declared && keep {
				vals[name] = engine.InputValue{Value: parseUndeclaredValue(raw)}
				continue
			}
			if !declared {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Value for undeclared variable",
					Detail:   fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name),
				})
				continue
			}
			v, vdiags := parseVarValue(decl, raw, "-var option")
			diags = append(diags, vdiags...)
			vals[name] = engine.InputValue{Value: v, Via: fmt.Sprintf("-var=%q", name+"=...")}
		}
	}
	if promptMissing && f != nil && inputAllowed(d, f.input) {
		diags = append(diags, promptVariables(d, mod, vals)...)
	}
	return vals, diags
}

// autoVarFiles are the variable files strata reads by itself in dir:
// terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars and
// *.auto.tfvars.json by name. abs resolves dir against the working
// directory; the names come back as given (relative), for messages.
func autoVarFiles(abs func(string) string, dir string) []string {
	var files []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(abs(filepath.Join(dir, name))); err == nil {
			files = append(files, filepath.Join(dir, name))
		}
	}
	auto, _ := filepath.Glob(filepath.Join(abs(dir), "*.auto.tfvars"))
	autoJSON, _ := filepath.Glob(filepath.Join(abs(dir), "*.auto.tfvars.json"))
	auto = append(auto, autoJSON...)
	sort.Strings(auto)
	for _, name := range auto {
		files = append(files, filepath.Join(dir, filepath.Base(name)))
	}
	return files
}

// parseVarValue interprets a string from the command line or environment:
// literally for variables with no type or a primitive one, as an HCL
// expression otherwise (any, collections, objects), as Terraform does.
func parseVarValue(decl *configs.Variable, raw, source string) (cty.Value, hcl.Diagnostics) {
	if decl.ParseLiteral {
		return cty.StringVal(raw), nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), "<value for var."+decl.Name+">", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for input variable",
			Detail:   fmt.Sprintf("The value given for var.%s in the %s is not a valid expression: %s.", decl.Name, source, strings.TrimSuffix(diags[0].Detail, ".")),
		}}
	}
	v, vdiags := expr.Value(nil)
	return v, vdiags
}

// parseUndeclaredValue interprets a -var or TF_VAR_ value for a variable
// the root module does not declare, kept for strata test, where the
// module of a run block may declare it: as an HCL expression when it is
// one that refers to nothing ("[1, 2]", "3"), else as the string it is
// ("foo", "Hello, world!"). Terraform keeps such values unparsed until a
// module declares them; an untyped declaration takes them as strings.
func parseUndeclaredValue(raw string) cty.Value {
	expr, diags := hclsyntax.ParseExpression([]byte(raw), "", hcl.InitialPos)
	if diags.HasErrors() || len(expr.Variables()) > 0 {
		return cty.StringVal(raw)
	}
	v, vdiags := expr.Value(nil)
	if vdiags.HasErrors() {
		return cty.StringVal(raw)
	}
	return v
}

// loadVarFile reads a .tfvars or .tfvars.json file into vals. Values for
// variables mod does not declare are dropped with a warning, or kept when
// keepUndeclared is set.
func loadVarFile(p *configs.Parser, mod *configs.Module, path string, vals map[string]engine.InputValue, keepUndeclared bool) hcl.Diagnostics {
	src, err := os.ReadFile(p.Abs(path))
	if err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read variables file",
			Detail:   fmt.Sprintf("Given variables file %s does not exist.", path),
		}}
	}
	f, diags := p.ParseSource(src, path)
	if diags.HasErrors() {
		return diags
	}
	attrs, adiags := f.Body.JustAttributes()
	diags = append(diags, adiags...)
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		attr := attrs[name]
		if _, ok := mod.Variables[name]; !ok && !keepUndeclared {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.", name, path),
				Subject:  attr.NameRange.Ptr(),
			})
			continue
		}
		v, vdiags := attr.Expr.Value(nil)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			vals[name] = engine.InputValue{Value: v, Source: attr.Expr.Range()}
		}
	}
	return diags
}
