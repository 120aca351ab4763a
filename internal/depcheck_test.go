package internal_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestImportDirection enforces the package map of DESIGN.md and STYLE.md:
// imports flow downward only. Each package lists the strata packages it
// may import directly; a package the map does not list fails the test, so
// that every new package is placed in a layer when it is added.
func TestImportDirection(t *testing.T) {
	const mod = "github.com/strata-dev/strata"
	allowed := map[string][]string{
		// Leaves.
		"internal/addrs":                            {},
		"internal/tailbuf":                          {},
		"internal/datadir":                          {},
		"internal/logging":                          {},
		"internal/configs/configschema":             {},
		"internal/configs/format":                   {},
		"internal/engine/dag":                       {},
		"internal/lang/marks":                       {},
		"internal/lang/funcs":                       {},
		"internal/upgrade":                          {},
		"internal/ctyjson":                          {},
		"internal/contract":                         {},
		"internal/encryption":                       {},
		"internal/providers/plugin/proto/tfplugin5": {},
		"internal/providers/plugin/proto/tfplugin6": {},

		// Models.
		"internal/configs":           {"addrs", "configs/configschema", "datadir", "encryption"},
		"internal/configs/genconfig": {"addrs", "configs/configschema", "lang/marks"},
		"internal/lang":              {"addrs", "configs/configschema", "lang/funcs", "lang/marks"},
		"internal/providers":         {"addrs", "configs/configschema"},
		"internal/upgrade/object":    {"providers", "configs/configschema"},
		"internal/states":            {"addrs"},
		"internal/states/statefile":  {"ctyjson", "states", "addrs", "upgrade"},
		"internal/plans":             {"addrs", "states"},
		"internal/plans/objchange":   {"configs/configschema", "lang/marks"},
		"internal/plans/planfile":    {"addrs", "lang/marks", "plans", "states/statefile"},
		// Test fixtures of plans, for the engine's and jsonplan's tests.
		"internal/plans/planstest": {"addrs", "configs", "configs/configschema", "plans", "states"},
		"internal/depsfile":        {"addrs"},
		"internal/getproviders":    {"addrs"},
		"internal/runrecord":       {"lang/marks"},

		// Documents: the JSON formats of `show -json`, `providers schema
		// -json` and `metadata functions -json`, built from the models.
		"internal/plans/jsonplan":         {"ctyjson", "addrs", "configs", "configs/configschema", "lang", "lang/marks", "plans", "states"},
		"internal/providers/jsonfunction": {"providers"},
		"internal/providers/jsonprovider": {"addrs", "configs/configschema", "providers", "providers/jsonfunction"},

		// Adapters: state storage, providers, installers.
		"internal/states/statemgr":     {"states", "states/statefile", "addrs", "encryption"},
		"internal/backend/backendbase": {"encryption", "states/statemgr"},
		"internal/backend/local":       {"encryption", "backend/backendbase", "states", "states/statefile", "states/statemgr"},
		"internal/backend/pg":          {"encryption", "backend/backendbase", "states", "states/statemgr"},
		"internal/backend/http":        {"encryption", "backend/backendbase", "states", "states/statemgr"},
		"internal/backend/inmem":       {"backend/backendbase", "states/statemgr"},
		"internal/backend/s3":          {"encryption", "backend/backendbase", "states", "states/statefile", "states/statemgr"},
		"internal/backend/s3/s3test":   {},
		"internal/backend": {"encryption", "backend/backendbase", "backend/local", "backend/pg", "backend/http", "backend/s3", "backend/inmem",
			"states", "states/statefile", "states/statemgr"},
		"internal/backend/migrate":             {"backend", "backend/local", "states", "states/statefile", "states/statemgr"},
		"internal/providers/providertest":      {"ctyjson", "providers", "configs/configschema"},
		"internal/providers/mock":              {"ctyjson", "providers", "configs/configschema"},
		"internal/providers/builtin/terraform": {"encryption", "ctyjson", "providers", "configs/configschema", "backend"},
		"internal/providers/builtin":           {"encryption", "addrs", "providers", "providers/builtin/terraform"},
		"internal/providers/plugin/convert":    {"ctyjson", "providers", "configs/configschema", "providers/plugin/proto/tfplugin5", "providers/plugin/proto/tfplugin6"},
		"internal/providers/plugin": {"addrs", "providers", "configs/configschema", "providers/plugin/convert",
			"providers/plugin/proto/tfplugin5", "providers/plugin/proto/tfplugin6", "tailbuf", "logging"},
		"internal/cliconfig":     {"addrs", "getproviders"},
		"internal/initwd":        {"addrs", "configs", "datadir", "getproviders"},
		"internal/providercache": {"addrs", "configs", "depsfile", "getproviders"},

		// The engine and what runs it.
		"internal/engine/hooks": {"addrs", "plans"},
		"internal/engine": {"ctyjson", "addrs", "configs", "configs/configschema", "configs/genconfig", "engine/dag", "engine/hooks", "lang", "lang/marks",
			"plans", "plans/objchange", "providers", "providers/mock", "states", "states/statefile", "tailbuf", "upgrade/object", "contract",
			"provisioners", "provisioners/localexec", "provisioners/remoteexec", "provisioners/file"},
		"internal/communicator/ssh":         {},
		"internal/communicator/ssh/sshtest": {},
		"internal/provisioners":             {"communicator/ssh", "configs/configschema"},
		"internal/provisioners/localexec":   {"provisioners", "configs/configschema", "tailbuf"},
		"internal/provisioners/remoteexec":  {"provisioners", "configs/configschema"},
		"internal/provisioners/file":        {"provisioners", "configs/configschema"},
		"internal/provisioners/external":    {"provisioners", "configs/configschema", "providers", "providers/plugin"},
		"internal/watch":                    {"addrs", "engine/hooks", "plans", "providers", "runrecord", "states"},
		"internal/runrecord/recorder":       {"addrs", "configs/configschema", "contract", "engine/hooks", "plans", "runrecord", "states", "states/statemgr"},
		"internal/moduletest": {"addrs", "configs", "engine", "lang/funcs", "lang/marks", "plans", "providers",
			"providers/mock", "states"},

		// Presentation and commands.
		"internal/command/views/render": {"configs/configschema", "plans"},
		"internal/command/views":        {"addrs", "plans", "states", "engine/hooks", "configs/configschema", "providers/jsonfunction", "command/views/render", "lang/marks", "moduletest", "contract", "runrecord"},
		"internal/command/statecmd": {"addrs", "command/views", "command/views/render", "configs/configschema", "ctyjson",
			"lang/marks", "states", "states/statefile", "states/statemgr"},
		"internal/command": {"ctyjson", "addrs", "backend", "backend/local", "backend/migrate", "cliconfig", "encryption", "providers/jsonfunction", "providers/jsonprovider", "command/statecmd",
			"command/views", "plans/jsonplan", "command/views/render", "configs", "configs/configschema",
			"configs/format", "configs/genconfig", "datadir", "depsfile", "engine", "engine/hooks", "getproviders",
			"initwd", "lang/funcs", "lang/marks", "logging", "moduletest", "plans", "plans/planfile", "providercache",
			"providers", "providers/builtin", "providers/plugin", "provisioners/external", "runrecord", "runrecord/recorder", "states", "states/statefile", "states/statemgr", "watch", "contract"},
		"main": {"command"},

		// Test helpers and tools, which nothing but tests and make
		// targets import.
		"internal":                           {},
		"internal/states/statemgr/pgtest":    {},
		"internal/getproviders/registrytest": {"testtls"},
		"internal/initwd/sourcetest":         {"testtls"},
		"internal/testtls":                   {},
		"internal/provbuild":                 {},
		"internal/bench":                     {"provbuild"},
		"internal/equivtest":                 {},
		"internal/compat":                    {"provbuild", "equivtest"},
	}
	out, err := exec.Command("go", "list", "-json", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg.ImportPath, mod), "/")
		if rel == "" {
			rel = "main"
		}
		seen[rel] = true
		allow, ok := allowed[rel]
		if !ok {
			t.Errorf("%s is not in the package map: add it to this test at its layer, with the strata packages it may import", rel)
			continue
		}
		set := map[string]bool{}
		for _, a := range allow {
			set["internal/"+a] = true
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, mod+"/") {
				continue
			}
			if dep := strings.TrimPrefix(imp, mod+"/"); !set[dep] {
				t.Errorf("%s imports %s, which the package map does not allow", rel, dep)
			}
		}
	}
	for rel := range allowed {
		if !seen[rel] {
			t.Errorf("the package map lists %s, which does not exist: remove it", rel)
		}
	}
}
