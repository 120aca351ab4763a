package moduletest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

// recorder is a Reporter that writes down what it is told.
type recorder struct{ events []string }

func (r *recorder) FileStart(f *File)          { r.events = append(r.events, "file "+f.Path) }
func (r *recorder) RunStart(_ *File, run *Run) { r.events = append(r.events, "start "+run.Config.Name) }
func (r *recorder) RunDone(_ *File, run *Run) {
	r.events = append(r.events, fmt.Sprintf("done %s %s", run.Config.Name, run.Status))
}
func (r *recorder) RunProgress(*File, *Run, bool, time.Duration) {}
func (r *recorder) Teardown(*File)                               { r.events = append(r.events, "teardown") }
func (r *recorder) TeardownRun(_ *File, run *Run) {
	r.events = append(r.events, "destroy "+run.Config.Name)
}
func (r *recorder) CleanupFailed(_ *File, c *Cleanup) {
	r.events = append(r.events, fmt.Sprintf("cleanup failed %s %v", c.Run.Config.Name, c.Left))
}
func (r *recorder) FileDone(f *File) {
	r.events = append(r.events, "file done "+f.Status.String())
}

// applyLog is a provider backend that records, for each create, which
// other creates were in progress, and holds the creates named in meet
// until they have all started (or a timeout passes), so that runs that
// may run together are seen to.
type applyLog struct {
	mu       sync.Mutex
	inflight map[string]bool
	// overlaps[name] are the creates in progress while name's ran.
	overlaps map[string][]string
	finished []string
	meet     map[string]bool
	met      chan struct{}
}

func (l *applyLog) create(name string) {
	l.mu.Lock()
	for other := range l.inflight {
		l.overlaps[name] = append(l.overlaps[name], other)
		l.overlaps[other] = append(l.overlaps[other], name)
	}
	l.inflight[name] = true
	all := len(l.meet) > 0
	for m := range l.meet {
		all = all && l.inflight[m]
	}
	if all {
		close(l.met)
		l.meet = nil
	}
	waiting := l.meet[name]
	l.mu.Unlock()
	if waiting {
		select {
		case <-l.met:
		case <-time.After(3 * time.Second):
		}
	}
	l.mu.Lock()
	delete(l.inflight, name)
	l.finished = append(l.finished, name)
	l.mu.Unlock()
}

func testProvider(log *applyLog) providers.Factory {
	schema := providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{
		"test_thing": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"name": {Type: cty.String, Required: true},
			"id":   {Type: cty.String, Computed: true},
		}}},
	}}
	return func() (providers.Interface, error) {
		return &providertest.Provider{
			Schema: schema,
			ApplyResourceChangeFn: func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				if req.PlannedState.IsNull() {
					return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
				}
				name := req.PlannedState.GetAttr("name").AsString()
				log.create(name)
				vals := req.PlannedState.AsValueMap()
				if !vals["id"].IsKnown() {
					vals["id"] = cty.StringVal("id-" + name)
				}
				return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(vals)}
			},
		}, nil
	}
}

// TestParallelRuns: runs marked parallel with different states and no
// references between them run at the same time (within the run limit);
// the others wait for what they depend on; an errored run skips only the
// runs that depend on it; events come in file order whatever the timing.
// Run it with -race.
func TestParallelRuns(t *testing.T) {
	const module = `
variable "name" {
  type = string
}
resource "test_thing" "t" {
  name = var.name
}
output "name" {
  value = test_thing.t.name
}
`
	tests := map[string]struct {
		file  string
		limit int
		meet  []string
		// overlaps are the creates that must have run together; apart
		// those that must not have.
		overlaps, apart [][2]string
		// before are creates that must have finished before others.
		before [][2]string
		events []string
	}{
		"parallel": {
			file: `
test {
  parallel = true
}
run "a" {
  state_key = "a"
  variables {
    name = "a"
  }
}
run "b" {
  state_key = "b"
  variables {
    name = "b"
  }
}
run "c" {
  state_key = "c"
  variables {
    name = "${run.b.name}-c"
  }
}
run "d" {
  state_key = "a"
  variables {
    name = "d"
  }
}
run "e" {
  parallel = false
  state_key = "e"
  variables {
    name = "e"
  }
}
`,
			meet:     []string{"a", "b"},
			overlaps: [][2]string{{"a", "b"}},
			apart:    [][2]string{{"e", "a"}, {"e", "b"}, {"e", "b-c"}, {"e", "d"}},
			before:   [][2]string{{"b", "b-c"}, {"a", "d"}, {"d", "e"}, {"b-c", "e"}},
			events: []string{"file f.tftest.hcl", "start a", "done a pass", "start b", "done b pass", "start c", "done c pass",
				"start d", "done d pass", "start e", "done e pass", "teardown", "destroy e", "destroy d", "destroy c", "destroy b", "file done pass"},
		},
		"run limit": {
			file: `
test {
  parallel = true
}
run "a" {
  state_key = "a"
  variables {
    name = "a"
  }
}
run "b" {
  state_key = "b"
  variables {
    name = "b"
  }
}
`,
			limit: 1,
			apart: [][2]string{{"a", "b"}},
			events: []string{"file f.tftest.hcl", "start a", "done a pass", "start b", "done b pass",
				"teardown", "destroy b", "destroy a", "file done pass"},
		},
		"errors skip dependents only": {
			file: `
test {
  parallel = true
}
run "one" {
  state_key = "one"
  variables {
    name = "one"
  }
  assert {
    condition     = output.name
    error_message = "not a bool"
  }
}
run "two" {
  state_key = "two"
  variables {
    name = run.one.name
  }
}
run "three" {
  state_key = "three"
  variables {
    name = "three"
  }
}
`,
			events: []string{"file f.tftest.hcl", "start one", "done one error", "done two skip", "start three", "done three pass",
				"teardown", "destroy three", "destroy one", "file done error"},
		},
		"sequential by default": {
			file: `
run "a" {
  state_key = "a"
  variables {
    name = "a"
  }
}
run "b" {
  state_key = "b"
  variables {
    name = "b"
  }
}
`,
			apart:  [][2]string{{"a", "b"}},
			before: [][2]string{{"a", "b"}},
			events: []string{"file f.tftest.hcl", "start a", "done a pass", "start b", "done b pass",
				"teardown", "destroy b", "destroy a", "file done pass"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(module), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "f.tftest.hcl")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			parser := configs.NewParser()
			files, diags := Load(parser, dir, []string{"f.tftest.hcl"})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			log := &applyLog{inflight: map[string]bool{}, overlaps: map[string][]string{}, meet: map[string]bool{}, met: make(chan struct{})}
			for _, m := range tc.meet {
				log.meet[m] = true
			}
			rec := &recorder{}
			rn := &Runner{
				Dir:        dir,
				LoadConfig: parser.LoadConfig,
				NewEngine: func(cfg *configs.Config) *engine.Engine {
					return &engine.Engine{Config: cfg, Providers: map[addrs.Provider]providers.Factory{addrs.NewDefaultProvider("test"): testProvider(log)}}
				},
				Reporter:       rec,
				RunParallelism: tc.limit,
			}
			rn.Run(context.Background(), files)
			if diff := cmp.Diff(tc.events, rec.events); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			together := func(a, b string) bool {
				for _, o := range log.overlaps[a] {
					if o == b {
						return true
					}
				}
				return false
			}
			for _, p := range tc.overlaps {
				if !together(p[0], p[1]) {
					t.Errorf("%s and %s did not run together; overlaps %v", p[0], p[1], log.overlaps)
				}
			}
			for _, p := range tc.apart {
				if together(p[0], p[1]) {
					t.Errorf("%s and %s ran together", p[0], p[1])
				}
			}
			pos := map[string]int{}
			for i, n := range log.finished {
				pos[n] = i
			}
			for _, p := range tc.before {
				if pos[p[0]] > pos[p[1]] {
					t.Errorf("%s finished after %s: %v", p[0], p[1], log.finished)
				}
			}
		})
	}
}

// progressRecorder counts RunProgress reports by run and kind.
type progressRecorder struct {
	recorder
	mu    sync.Mutex
	count map[string]int
}

func (p *progressRecorder) RunProgress(_ *File, r *Run, teardown bool, _ time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := "running " + r.Config.Name
	if teardown {
		key = "teardown " + r.Config.Name
	}
	p.count[key]++
}

// TestRunProgress: a run or a destroy that takes longer than the
// interval is reported as still going, as terraform test's -json does
// every 2 seconds.
func TestRunProgress(t *testing.T) {
	dir := t.TempDir()
	module := "variable \"name\" {\n  type = string\n}\nresource \"test_thing\" \"t\" {\n  name = var.name\n}\n"
	file := "run \"slow\" {\n  variables {\n    name = \"slow\"\n  }\n}\nrun \"quick\" {\n  command = plan\n  variables {\n    name = \"quick\"\n  }\n}\n"
	for name, src := range map[string]string{"main.tf": module, "f.tftest.hcl": file} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	parser := configs.NewParser()
	files, diags := Load(parser, dir, []string{"f.tftest.hcl"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	schema := providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{
		"test_thing": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"name": {Type: cty.String, Required: true},
			"id":   {Type: cty.String, Computed: true},
		}}},
	}}
	slow := func() (providers.Interface, error) {
		return &providertest.Provider{Schema: schema, ApplyResourceChangeFn: func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
			time.Sleep(300 * time.Millisecond) // creates and destroys alike
			if req.PlannedState.IsNull() {
				return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
			}
			vals := req.PlannedState.AsValueMap()
			vals["id"] = cty.StringVal("x")
			return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(vals)}
		}}, nil
	}
	rec := &progressRecorder{count: map[string]int{}}
	rn := &Runner{
		Dir:        dir,
		LoadConfig: parser.LoadConfig,
		NewEngine: func(cfg *configs.Config) *engine.Engine {
			return &engine.Engine{Config: cfg, Providers: map[addrs.Provider]providers.Factory{addrs.NewDefaultProvider("test"): slow}}
		},
		Reporter:         rec,
		ProgressInterval: 50 * time.Millisecond,
	}
	rn.Run(context.Background(), files)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.count["running slow"] == 0 || rec.count["teardown slow"] == 0 {
		t.Errorf("no progress reported for the slow run and its destroy: %v", rec.count)
	}
}
