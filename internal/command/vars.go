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
	// deferWarnings keeps the warnings about the values
	// (operation.varWarnings) for the command to show with its own, after
	// the plan, where Terraform shows them (plan, apply, destroy,
	// refresh).
	deferWarnings bool
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
	given, diags := gatherVariables(d, mod, p, f, func(name string) bool { return mod.Variables[name] != nil })
	vals := make(map[string]engine.InputValue, len(given))
	for name, g := range given {
		vals[name] = g.InputValue
	}
	if promptMissing && f != nil && inputAllowed(d, f.input) {
		diags = append(diags, promptVariables(d, mod, vals)...)
	}
	return vals, diags
}

// varSource is where a variable's value was given.
type varSource int

const (
	fromEnv       varSource = iota // a TF_VAR_ environment variable
	fromAutoFile                   // terraform.tfvars or *.auto.tfvars(.json)
	fromNamedFile                  // a -var-file
	fromCLI                        // a -var
)

// givenVariable is a value gathered by gatherVariables, with where it
// came from.
type givenVariable struct {
	engine.InputValue
	From varSource
}

// gatherVariables is collectVariables without prompts, for the variables
// declared reports as declared (all of mod's, or, applying a saved plan,
// those the plan was given values for). Values come as given, before
// conversion to the variable's type: -var and TF_VAR_ values of
// variables whose type is a primitive one are strings. Values for other
// variables are kept for strata test (f.undeclared); otherwise, as in
// Terraform, one given by -var is an error, one from a file a warning
// (two at most, then a count), and one from the environment is ignored
// silently; when a variable is given several times, the last one counts.
func gatherVariables(d *Deps, mod *configs.Module, p *configs.Parser, f *varFlags, declared func(string) bool) (map[string]givenVariable, hcl.Diagnostics) {
	vals := map[string]givenVariable{}
	var diags hcl.Diagnostics
	keep := f != nil && f.undeclared
	// undeclared holds, for each undeclared name, where its last value
	// came from (the file's name for a file).
	type undeclaredValue struct {
		from varSource
		file string
	}
	undeclared := map[string]undeclaredValue{}
	setUndeclared := func(name string, u undeclaredValue) {
		delete(vals, name)
		undeclared[name] = u
	}
	set := func(name string, g givenVariable) {
		delete(undeclared, name)
		vals[name] = g
	}
	parse := func(name, raw, source string) (cty.Value, hcl.Diagnostics) {
		if decl := mod.Variables[name]; decl != nil {
			return parseVarValue(decl, raw, source)
		}
		return parseUndeclaredValue(raw), nil
	}
	// Environment.
	for _, kv := range d.environ() {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "TF_VAR_") {
			continue
		}
		name = strings.TrimPrefix(name, "TF_VAR_")
		switch {
		case declared(name):
			v, vdiags := parse(name, value, "environment variable TF_VAR_"+name)
			diags = append(diags, vdiags...)
			set(name, givenVariable{engine.InputValue{Value: v, Via: "the TF_VAR_" + name + " environment variable"}, fromEnv})
		case keep:
			set(name, givenVariable{engine.InputValue{Value: parseUndeclaredValue(value)}, fromEnv})
		default:
			setUndeclared(name, undeclaredValue{from: fromEnv})
		}
	}
	file := func(name string, from varSource) {
		fdiags := readVarFile(p, name, func(attr *hcl.Attribute) {
			if !declared(attr.Name) && !keep {
				setUndeclared(attr.Name, undeclaredValue{from: from, file: name})
				return
			}
			v, vdiags := attr.Expr.Value(nil)
			diags = append(diags, vdiags...)
			if !vdiags.HasErrors() {
				set(attr.Name, givenVariable{engine.InputValue{Value: v, Source: attr.Expr.Range()}, from})
			}
		})
		diags = append(diags, fdiags...)
	}
	// Automatic files.
	for _, name := range autoVarFiles(p.Abs, ".") {
		file(name, fromAutoFile)
	}
	// Command line.
	if f != nil {
		for _, it := range *f.items {
			if it.file {
				file(it.value, fromNamedFile)
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
			if !declared(name) && !keep {
				setUndeclared(name, undeclaredValue{from: fromCLI})
				continue
			}
			v, vdiags := parse(name, raw, "-var option")
			diags = append(diags, vdiags...)
			set(name, givenVariable{engine.InputValue{Value: v, Via: fmt.Sprintf("-var=%q", name+"=...")}, fromCLI})
		}
	}
	names := make([]string, 0, len(undeclared))
	for name := range undeclared {
		names = append(names, name)
	}
	sort.Strings(names)
	inFiles := 0
	for _, name := range names {
		switch u := undeclared[name]; u.from {
		case fromCLI:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name),
			})
		case fromAutoFile, fromNamedFile:
			inFiles++
			if inFiles <= 2 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Value for undeclared variable",
					Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\n", name, u.file) +
						"To silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.",
				})
			}
		}
	}
	if inFiles > 2 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Values for undeclared variables",
			Detail:   fmt.Sprintf("In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", inFiles-2),
		})
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

// readVarFile reads a .tfvars or .tfvars.json file, calling each for
// its attributes in name order.
func readVarFile(p *configs.Parser, path string, each func(*hcl.Attribute)) hcl.Diagnostics {
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
		each(attrs[name])
	}
	return diags
}

// loadVarFile reads a .tfvars or .tfvars.json file into vals, for strata
// test's variables files: values for variables mod does not declare are
// dropped with a warning, or kept when keepUndeclared is set.
func loadVarFile(p *configs.Parser, mod *configs.Module, path string, vals map[string]engine.InputValue, keepUndeclared bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	fdiags := readVarFile(p, path, func(attr *hcl.Attribute) {
		if _, ok := mod.Variables[attr.Name]; !ok && !keepUndeclared {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.", attr.Name, path),
				Subject:  attr.NameRange.Ptr(),
			})
			return
		}
		v, vdiags := attr.Expr.Value(nil)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			vals[attr.Name] = engine.InputValue{Value: v, Source: attr.Expr.Range()}
		}
	})
	return append(diags, fdiags...)
}
