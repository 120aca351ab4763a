package engine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// provisionHook records provisioner events and apply starts and ends as
// lines like "pre ADDR local-exec", "out ADDR LINE", "post ADDR ok".
type provisionHook struct {
	hooks.Nil
	mu     sync.Mutex
	events []string
}

func (h *provisionHook) add(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, s)
}

func (h *provisionHook) PreApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, id string) {
	h.add("apply " + addr.String() + " " + action.String())
}

func (h *provisionHook) PostApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, id string, elapsed time.Duration, err error) {
	h.add("applied " + addr.String() + " " + errString(err))
}

func (h *provisionHook) PreProvision(addr addrs.AbsResourceInstance, typeName string) {
	h.add("pre " + addr.String() + " " + typeName)
}

func (h *provisionHook) ProvisionOutput(addr addrs.AbsResourceInstance, typeName, line string) {
	h.add("out " + addr.String() + " " + strings.TrimSpace(line))
}

func (h *provisionHook) PostProvision(addr addrs.AbsResourceInstance, typeName string, err error) {
	h.add("post " + addr.String() + " " + errString(err))
}

func (h *provisionHook) of(addr string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if strings.Fields(e)[1] == addr {
			out = append(out, e)
		}
	}
	return out
}

func errString(err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}

// statusRecorder is a state journal that remembers each object's last
// recorded status.
type statusRecorder struct {
	mu   sync.Mutex
	sets []string
}

func (r *statusRecorder) Intent(addrs.AbsResourceInstance, string, string) error { return nil }

func (r *statusRecorder) Set(addr addrs.AbsResourceInstance, deposed string, obj *states.ObjectSrc, _ addrs.AbsProviderConfig) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := "removed"
	if obj != nil {
		s = "ready"
		if obj.Status == states.ObjectTainted {
			s = "tainted"
		}
	}
	r.sets = append(r.sets, addr.String()+" "+s)
	return nil
}

func (r *statusRecorder) SetOutput(string, *states.OutputValue) error { return nil }

func provisionEngine(t *testing.T, src string) (*Engine, *provisionHook) {
	t.Helper()
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src}))
	h := &provisionHook{}
	e.Hooks = []hooks.Hook{h}
	return e, h
}

func readOut(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProvisionCreateTime(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	e, h := provisionEngine(t, `
resource "terraform_data" "c" {
  count = 2
  input = "c${count.index}"
  provisioner "local-exec" {
    command = "echo counted ${self.input} ${count.index} $GREETING >> `+out+`"
    environment = {
      GREETING = "hello"
      UNSET    = null
    }
  }
}
resource "terraform_data" "e" {
  for_each = { k = "v" }
  input    = each.value
  provisioner "local-exec" {
    command = "echo each ${each.key} ${each.value} ${self.output} ${terraform_data.c[1].output} >> `+out+`"
  }
}
resource "terraform_data" "w" {
  provisioner "local-exec" {
    command     = "pwd >> `+out+`; echo to stderr >&2"
    working_dir = "`+dir+`"
    interpreter = ["/bin/bash", "-c"]
  }
}
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	got := strings.Split(strings.TrimSpace(readOut(t, out)), "\n")
	want := map[string]bool{"counted c0 0 hello": true, "counted c1 1 hello": true, "each k v v c1": true, dir: true}
	if len(got) != len(want) {
		t.Fatalf("commands wrote %q", got)
	}
	for _, line := range got {
		if !want[line] {
			t.Errorf("unexpected line %q; all: %q", line, got)
		}
	}
	wantW := []string{
		"apply terraform_data.w Create",
		"pre terraform_data.w local-exec",
		`out terraform_data.w Executing: ["/bin/bash" "-c" "pwd >> ` + out + `; echo to stderr >&2"]`,
		"out terraform_data.w to stderr",
		"post terraform_data.w ok",
		"applied terraform_data.w ok",
	}
	if diff := cmp.Diff(wantW, h.of("terraform_data.w")); diff != "" {
		t.Errorf("wrong events (-want +got)\n%s", diff)
	}
	// terraform_data.e refers to terraform_data.c in its provisioner: it
	// depends on it, as Terraform records.
	if deps := state.Object(mustInstance(t, `terraform_data.e["k"]`)).Dependencies; len(deps) != 1 || deps[0].String() != "terraform_data.c" {
		t.Errorf("wrong dependencies %v", deps)
	}

	// An update does not run creation-time provisioners.
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	e2, h2 := provisionEngine(t, `
resource "terraform_data" "w" {
  input = "changed"
  provisioner "local-exec" {
    command = "echo again >> `+out+`"
  }
}
`)
	plan, _ := planApply(t, e2, state, PlanOpts{})
	if a := actions(plan)["terraform_data.w"]; a != plans.Update {
		t.Fatalf("planned %s, want update", a)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("a provisioner ran on update: %q", readOut(t, out))
	}
	for _, ev := range h2.of("terraform_data.w") {
		if strings.HasPrefix(ev, "pre ") {
			t.Fatalf("provisioner hooks on update: %v", h2.of("terraform_data.w"))
		}
	}
}

func TestProvisionFailure(t *testing.T) {
	e, h := provisionEngine(t, `
resource "terraform_data" "fail" {
  provisioner "local-exec" {
    command = "echo failing; exit 3"
  }
  provisioner "local-exec" {
    command = "echo never"
  }
}
resource "terraform_data" "cont" {
  provisioner "local-exec" {
    command    = "exit 4"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "echo after"
  }
}
`)
	rec := &statusRecorder{}
	e.Recorder = rec
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	state, diags := e.Apply(context.Background(), plan)
	if !diags.HasErrors() || len(diags) != 1 {
		t.Fatalf("want one error, got %v", diags)
	}
	d := diags[0]
	if d.Summary != "local-exec provisioner error" || d.Detail != "Error running command 'echo failing; exit 3': exit status 3. Output: failing\n" {
		t.Errorf("wrong diagnostic %q: %q", d.Summary, d.Detail)
	}
	if d.Subject == nil || d.Subject.Start.Line != 3 || d.Subject.Start.Column != 28 {
		t.Errorf("wrong subject %v", d.Subject)
	}

	if got := state.Object(mustInstance(t, "terraform_data.fail")).Status; got != states.ObjectTainted {
		t.Errorf("failed object has status %v, want tainted", got)
	}
	if got := state.Object(mustInstance(t, "terraform_data.cont")).Status; got == states.ObjectTainted {
		t.Errorf("on_failure = continue tainted the object")
	}
	wantFail := []string{
		"apply terraform_data.fail Create",
		"pre terraform_data.fail local-exec",
		`out terraform_data.fail Executing: ["/bin/sh" "-c" "echo failing; exit 3"]`,
		"out terraform_data.fail failing",
		"post terraform_data.fail error: local-exec provisioner error",
		"applied terraform_data.fail error: local-exec provisioner error",
	}
	if diff := cmp.Diff(wantFail, h.of("terraform_data.fail")); diff != "" {
		t.Errorf("wrong events (-want +got)\n%s", diff)
	}
	cont := h.of("terraform_data.cont")
	if len(cont) != 9 || cont[3] != "post terraform_data.cont error: local-exec provisioner error" || cont[8] != "applied terraform_data.cont ok" {
		t.Errorf("wrong events for on_failure = continue: %q", cont)
	}
	// The journal records the new object, then the same object tainted.
	var failSets []string
	for _, s := range rec.sets {
		if strings.HasPrefix(s, "terraform_data.fail ") {
			failSets = append(failSets, s)
		}
	}
	if diff := cmp.Diff([]string{"terraform_data.fail ready", "terraform_data.fail tainted"}, failSets); diff != "" {
		t.Errorf("wrong journal (-want +got)\n%s", diff)
	}

	// The next plan replaces the tainted object.
	plan, diags = builtinEngine(e.Config).Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if a := actions(plan)["terraform_data.fail"]; a != plans.DeleteThenCreate {
		t.Errorf("tainted object planned %s, want replacement", a)
	}
}

func TestProvisionDestroyTime(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	src := `
resource "terraform_data" "c" {
  count = 2
  input = "c${count.index}"
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroy ${self.output} ${count.index} >> ` + out + `"
  }
}
resource "terraform_data" "e" {
  for_each = { k = "v" }
  input    = each.value
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroy ${each.key} ${self.input} >> ` + out + `"
  }
}
resource "terraform_data" "fail" {
  provisioner "local-exec" {
    when    = destroy
    command = "exit 1"
  }
}
`
	e, h := provisionEngine(t, src)
	_, state := planApply(t, e, nil, PlanOpts{})
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("destroy-time provisioners ran on create: %q", readOut(t, out))
	}
	plan, diags := e.Plan(context.Background(), state, PlanOpts{Mode: plans.DestroyMode})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	state, diags = e.Apply(context.Background(), plan)
	if !diags.HasErrors() || diags[0].Summary != "local-exec provisioner error" {
		t.Fatalf("want the failing provisioner's error, got %v", diags)
	}
	got := strings.Split(strings.TrimSpace(readOut(t, out)), "\n")
	want := map[string]bool{"destroy c0 0": true, "destroy c1 1": true, "destroy k v": true}
	if len(got) != len(want) {
		t.Fatalf("commands wrote %q", got)
	}
	for _, line := range got {
		if !want[line] {
			t.Errorf("unexpected line %q", line)
		}
	}
	// A failed destroy-time provisioner keeps the object, untainted.
	obj := state.Object(mustInstance(t, "terraform_data.fail"))
	if obj == nil || obj.Status == states.ObjectTainted {
		t.Fatalf("object after a failed destroy provisioner: %+v", obj)
	}
	if n := len(state.AllInstances()); n != 1 {
		t.Errorf("%d instances left, want 1", n)
	}
	wantFail := []string{
		"apply terraform_data.fail Delete",
		"pre terraform_data.fail local-exec",
		`out terraform_data.fail Executing: ["/bin/sh" "-c" "exit 1"]`,
		"post terraform_data.fail error: local-exec provisioner error",
		"applied terraform_data.fail error: local-exec provisioner error",
	}
	if diff := cmp.Diff(wantFail, h.of("terraform_data.fail")[len(h.of("terraform_data.fail"))-5:]); diff != "" {
		t.Errorf("wrong events (-want +got)\n%s", diff)
	}
}

func TestProvisionRemovedBlock(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	e, _ := provisionEngine(t, `
resource "terraform_data" "gone" {
  count = 1
  input = "x"
}
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	e2, _ := provisionEngine(t, `
removed {
  from = terraform_data.gone
  provisioner "local-exec" {
    when    = destroy
    command = "echo removed ${count.index} ${self.input} >> `+out+`"
  }
}
`)
	_, state = planApply(t, e2, state, PlanOpts{})
	if got := strings.TrimSpace(readOut(t, out)); got != "removed 0 x" {
		t.Errorf("removed block's provisioner wrote %q", got)
	}
	if n := len(state.AllInstances()); n != 0 {
		t.Errorf("%d instances left", n)
	}
}

func TestProvisionSensitiveOutput(t *testing.T) {
	e, h := provisionEngine(t, `
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "s" {
  provisioner "local-exec" {
    command = "echo ${var.secret}"
  }
}
`)
	planApply(t, e, nil, PlanOpts{})
	for _, ev := range h.of("terraform_data.s") {
		if strings.Contains(ev, "hunter2") {
			t.Fatalf("secret shown: %q", h.of("terraform_data.s"))
		}
	}
	if got := h.of("terraform_data.s")[2]; got != "out terraform_data.s "+suppressedOutput {
		t.Errorf("wrong output %q", got)
	}
}

// TestProvisionSensitiveError: a failing provisioner's error does not
// repeat a sensitive command or what it printed (Terraform's does).
func TestProvisionSensitiveError(t *testing.T) {
	e, _ := provisionEngine(t, `
variable "secret" {
  default   = "hunter2-in-error"
  sensitive = true
}
resource "terraform_data" "s" {
  provisioner "local-exec" {
    command = "echo ${var.secret}; exit 3"
  }
}
`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags = e.Apply(context.Background(), plan)
	if !diags.HasErrors() {
		t.Fatal("the provisioner did not fail")
	}
	for _, d := range diags {
		if strings.Contains(d.Summary+d.Detail, "hunter2") {
			t.Fatalf("secret in the error: %s: %s", d.Summary, d.Detail)
		}
	}
	if want := "Error running command '(sensitive value)': exit status 3"; !strings.Contains(diags[0].Detail, want) {
		t.Errorf("error %q lacks %q", diags[0].Detail, want)
	}
}

func TestMaskSensitive(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"command": cty.StringVal("login --password s3cr3t-long"),
		"env":     cty.MapVal(map[string]cty.Value{"TOKEN": cty.StringVal("tok-123456"), "X": cty.StringVal("ok")}),
	})
	diags := hcl.Diagnostics{{Summary: "failed", Detail: "ran login --password s3cr3t-long with tok-123456 and ok"}}
	maskSensitive(diags, v, []cty.Path{cty.GetAttrPath("command"), cty.GetAttrPath("env").Index(cty.StringVal("TOKEN"))})
	if want := "ran (sensitive value) with (sensitive value) and ok"; diags[0].Detail != want {
		t.Errorf("got %q, want %q", diags[0].Detail, want)
	}
}

func TestProvisionConfigErrors(t *testing.T) {
	e, _ := provisionEngine(t, `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    comand = "x"
  }
  # Not validated: as in Terraform, validation stops at the first
  # provisioner of a resource with errors.
  provisioner "local-exec" {
    command = "x"
    bogus   = 1
  }
}
resource "terraform_data" "b" {
  provisioner "local-exec" {
    command = self.nope
  }
}
`)
	summaries := func(diags []string) string { return strings.Join(diags, ", ") }
	var got []string
	for _, d := range e.Validate(context.Background()) {
		got = append(got, d.Summary)
	}
	want := "Missing required argument, Unsupported argument, Unsupported attribute"
	if summaries(got) != want {
		t.Errorf("validate: got %s, want %s", summaries(got), want)
	}
	_, diags := e.Plan(context.Background(), nil, PlanOpts{})
	got = nil
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	if summaries(got) != want {
		t.Errorf("plan: got %s, want %s", summaries(got), want)
	}

	// An empty command fails when it runs, as in Terraform.
	e, _ = provisionEngine(t, `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = ""
  }
}
`)
	plan, pdiags := e.Plan(context.Background(), nil, PlanOpts{})
	if pdiags.HasErrors() {
		t.Fatal(pdiags.Error())
	}
	state, adiags := e.Apply(context.Background(), plan)
	if len(adiags) != 1 || adiags[0].Summary != "Invalid local-exec provisioner command" {
		t.Fatalf("wrong diagnostics %v", adiags)
	}
	if state.Object(mustInstance(t, "terraform_data.a")).Status != states.ObjectTainted {
		t.Errorf("object not tainted")
	}
}

func TestProvisionCancelKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	e, _ := provisionEngine(t, `
resource "terraform_data" "slow" {
  provisioner "local-exec" {
    command = "sleep 60 & echo $! > `+pidFile+`; wait"
  }
}
`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	state, diags := e.Apply(ctx, plan)
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Fatalf("apply took %s after the interrupt", elapsed)
	}
	if !diags.HasErrors() {
		t.Fatal("an interrupted provisioner did not fail")
	}
	if obj := state.Object(mustInstance(t, "terraform_data.slow")); obj == nil || obj.Status != states.ObjectTainted {
		t.Fatalf("interrupted object: %+v", obj)
	}
	// The background sleep, in the command's process group, is gone too.
	pid := strings.TrimSpace(readOut(t, pidFile))
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(b), ") Z ") {
			break // gone, or a zombie waiting for init
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %s still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestProvisionConnectionDependencies: what a connection block refers
// to, at resource or provisioner level, orders the resource after it and
// is recorded as a dependency, as for the provisioner's own arguments.
func TestProvisionConnectionDependencies(t *testing.T) {
	e, _ := provisionEngine(t, `
resource "terraform_data" "host" {
  input = "127.0.0.1"
}
resource "terraform_data" "user" {
  input = "admin"
}
resource "terraform_data" "a" {
  connection {
    host = terraform_data.host.output
  }
  provisioner "local-exec" {
    command = "true"
    connection {
      user = terraform_data.user.output
    }
  }
}
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	var got []string
	for _, d := range state.Object(mustInstance(t, "terraform_data.a")).Dependencies {
		got = append(got, d.String())
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string{"terraform_data.host", "terraform_data.user"}, got); diff != "" {
		t.Errorf("wrong dependencies (-want +got)\n%s", diff)
	}
}

// TestProvisionRemoteWithoutConnection: a remote provisioner without a
// connection block fails when it runs, in Terraform's words, and taints
// its object.
func TestProvisionRemoteWithoutConnection(t *testing.T) {
	e, h := provisionEngine(t, `
resource "terraform_data" "a" {
  provisioner "file" {
    content     = "x"
    destination = "/tmp/x"
  }
}
`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	state, adiags := e.Apply(context.Background(), plan)
	if len(adiags) != 1 || adiags[0].Summary != "file provisioner error" || adiags[0].Detail != "Missing connection configuration for provisioner." {
		t.Fatalf("wrong diagnostics %v", adiags)
	}
	if state.Object(mustInstance(t, "terraform_data.a")).Status != states.ObjectTainted {
		t.Errorf("object not tainted")
	}
	want := []string{
		"apply terraform_data.a Create",
		"pre terraform_data.a file",
		"post terraform_data.a error: file provisioner error",
		"applied terraform_data.a error: file provisioner error",
	}
	if diff := cmp.Diff(want, h.of("terraform_data.a")); diff != "" {
		t.Errorf("wrong events (-want +got)\n%s", diff)
	}
}
