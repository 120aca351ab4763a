package internal_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestImportDirection enforces the package map of DESIGN.md and STYLE.md:
// imports flow downward only. Each package lists the strata packages it
// may import directly.
func TestImportDirection(t *testing.T) {
	const mod = "github.com/strata-dev/strata/"
	allowed := map[string][]string{
		"internal/addrs":                       {},
		"internal/tailbuf":                     {},
		"internal/datadir":                     {},
		"internal/ctyjson":                     {},
		"internal/logging":                     {},
		"internal/configs/configschema":        {},
		"internal/engine/dag":                  {},
		"internal/lang/marks":                  {},
		"internal/lang/funcs":                  {},
		"internal/configs/format":              {},
		"internal/configs/genconfig":           {"addrs", "configs/configschema", "lang/marks"},
		"internal/configs":                     {"addrs", "configs/configschema", "datadir"},
		"internal/lang":                        {"addrs", "configs/configschema", "lang/funcs", "lang/marks"},
		"internal/providers":                   {"addrs", "configs/configschema"},
		"internal/providers/providertest":      {"providers", "configs/configschema", "ctyjson"},
		"internal/providers/builtin":           {"addrs", "providers", "providers/builtin/terraform"},
		"internal/providers/builtin/terraform": {"providers", "configs/configschema", "backend", "ctyjson"},
		"internal/providers/plugin": {"addrs", "providers", "configs/configschema", "providers/plugin/convert",
			"providers/plugin/proto/tfplugin5", "providers/plugin/proto/tfplugin6", "tailbuf", "datadir", "logging"},
		"internal/providers/plugin/convert":         {"providers", "configs/configschema", "providers/plugin/proto/tfplugin5", "providers/plugin/proto/tfplugin6", "ctyjson"},
		"internal/providers/plugin/proto/tfplugin5": {},
		"internal/providers/plugin/proto/tfplugin6": {},
		"internal/upgrade":                          {"providers", "configs/configschema"},
		"internal/states":                           {"addrs"},
		"internal/states/statefile":                 {"states", "addrs", "upgrade", "ctyjson"},
		"internal/states/statemgr":                  {"states", "states/statefile", "addrs"},
		"internal/backend/backendbase":              {"states/statemgr"},
		"internal/backend/local":                    {"backend/backendbase", "states", "states/statefile", "states/statemgr"},
		"internal/backend/pg":                       {"backend/backendbase", "states", "states/statemgr"},
		"internal/backend/http":                     {"backend/backendbase", "states", "states/statemgr"},
		"internal/backend/inmem":                    {"backend/backendbase", "states/statemgr"},
		"internal/backend": {"backend/backendbase", "backend/local", "backend/pg", "backend/http", "backend/inmem",
			"states", "states/statemgr"},
		"internal/plans":           {"addrs", "states", "configs/configschema"},
		"internal/plans/objchange": {"configs/configschema"},
		"internal/engine/hooks":    {"addrs", "plans"},
		"internal/engine": {"addrs", "configs", "configs/configschema", "configs/genconfig", "engine/dag", "engine/hooks", "lang", "lang/marks",
			"plans", "plans/objchange", "providers", "providers/mock", "states", "tailbuf", "upgrade", "ctyjson"},
		"internal/providers/mock": {"providers", "configs/configschema", "ctyjson"},
		"internal/moduletest": {"addrs", "configs", "engine", "lang/funcs", "lang/marks", "plans", "providers",
			"providers/mock", "states"},
		"internal/cliconfig":            {"addrs", "getproviders"},
		"internal/initwd":               {"addrs", "configs", "datadir", "getproviders"},
		"internal/providercache":        {"addrs", "configs", "depsfile", "getproviders"},
		"internal/command/jsonfunction": {"providers"},
		"internal/command/jsonprovider": {"addrs", "command/jsonfunction", "configs/configschema", "providers"},
		"internal/command/views/render": {"configs/configschema", "plans"},
		"internal/command/views":        {"addrs", "plans", "states", "engine/hooks", "configs/configschema", "command/views/render", "moduletest"},
	}
	out, err := exec.Command("go", "list", "-json", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(pkg.ImportPath, mod)
		allow, ok := allowed[rel]
		if !ok {
			continue // command, main and tools may import anything below them
		}
		set := map[string]bool{}
		for _, a := range allow {
			set["internal/"+a] = true
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			if dep := strings.TrimPrefix(imp, mod); !set[dep] {
				t.Errorf("%s imports %s, which the package map does not allow", rel, dep)
			}
		}
	}
}
