// Package equivtest runs Terraform's equivalence tests
// (testing/equivalence-tests in Terraform's repository) against a CLI
// binary and compares what it prints with the golden outputs Terraform
// produced, under the comparison rules of Terraform's equivalence testing
// framework (github.com/hashicorp/terraform-equivalence-testing): each
// test's directory is copied to a scratch directory, a list of commands
// runs there (by default init, plan, apply -json, show, show -json and
// show -json of the saved plan), the captured outputs are stripped of the
// fields that change from run to run plus those the test's spec.json
// lists, and each is compared with its golden file: JSON outputs as
// values, the others as text.
//
// make compat runs the suite (internal/compat); nothing of strata's is
// imported here: the package drives a binary.
package equivtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Spec is a test's spec.json.
type Spec struct {
	Description string `json:"description"`
	// IncludeFiles are files the commands leave in the working directory
	// that are compared with goldens of the same name.
	IncludeFiles []string `json:"include_files"`
	// IgnoreFields maps an output file's name to paths of JSON fields
	// removed before the comparison, on top of the defaults.
	IgnoreFields map[string][]string `json:"ignore_fields"`
	// Commands replace the default commands when given.
	Commands []Command `json:"commands"`
}

// Command is one CLI invocation of a test.
type Command struct {
	Name      string   `json:"name"`
	Arguments []string `json:"arguments"`
	// CaptureOutput keeps the command's standard output as the output
	// file OutputFileName.
	CaptureOutput  bool   `json:"capture_output"`
	OutputFileName string `json:"output_file_name"`
	// HasJSONOutput says the output is JSON: one document, or one
	// document a line when StreamsJSONOutput is set (apply -json), read
	// as a list of them.
	HasJSONOutput     bool `json:"has_json_output"`
	StreamsJSONOutput bool `json:"streams_json_output"`
}

// DefaultCommands are the commands of a test whose spec gives none.
var DefaultCommands = []Command{
	{Name: "init", Arguments: []string{"init"}},
	{Name: "plan", Arguments: []string{"plan", "-out=equivalence_test_plan", "-no-color"}, CaptureOutput: true, OutputFileName: "plan"},
	{Name: "apply", Arguments: []string{"apply", "-json", "equivalence_test_plan"}, CaptureOutput: true, OutputFileName: "apply.json", HasJSONOutput: true, StreamsJSONOutput: true},
	{Name: "show state", Arguments: []string{"show", "-no-color"}, CaptureOutput: true, OutputFileName: "state"},
	{Name: "show json state", Arguments: []string{"show", "-json"}, CaptureOutput: true, OutputFileName: "state.json", HasJSONOutput: true},
	{Name: "show json plan", Arguments: []string{"show", "-json", "equivalence_test_plan"}, CaptureOutput: true, OutputFileName: "plan.json", HasJSONOutput: true},
}

// Test is one test case: a directory of configuration with its spec.
type Test struct {
	Name string
	Dir  string
	Spec Spec
}

// ReadTests reads every test under dir (one subdirectory each), in the
// order of their names.
func ReadTests(dir string) ([]Test, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var tests []Test
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(filepath.Join(path, "spec.json"))
		if err != nil {
			return nil, err
		}
		var spec Spec
		if err := json.Unmarshal(b, &spec); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(path, "spec.json"), err)
		}
		tests = append(tests, Test{Name: e.Name(), Dir: path, Spec: spec})
	}
	return tests, nil
}

// commands are the commands the test runs.
func (t Test) commands() []Command {
	if len(t.Spec.Commands) > 0 {
		return t.Spec.Commands
	}
	return DefaultCommands
}
