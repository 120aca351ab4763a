package command

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/runrecord"
	"github.com/strata-dev/strata/internal/runrecord/recorder"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// The run records (see website/docs/runs.md): package recorder turns a
// plan and the engine's hook events into them; this file gives it the
// working directory's settings.

// runsDBFile is the run record database's name in the data directory,
// and runsLogDir the directory of the logs runs write as they go.
const (
	runsDBFile = "runs.db"
	runsLogDir = "runs"
)

// openRunStore opens the working directory's run records.
func openRunStore(d *Deps, opts ...runrecord.Option) (runrecord.Store, error) {
	return runrecord.Open(d.dataDir(runsDBFile), opts...)
}

// runCipher encrypts the values of run records with the state's
// encryption (see website/docs/encryption.md).
type runCipher struct{ t *encryption.Target }

func (c runCipher) Seal(plain []byte) ([]byte, error) { return c.t.EncryptRecord(plain) }
func (c runCipher) Open(sealed []byte) ([]byte, error) {
	return c.t.DecryptRecord(sealed)
}

// runRecordCipher is the cipher of the working directory's run records:
// the state's encryption, nil when the state is not encrypted (or is
// written unencrypted, for write).
func (d *Deps) runRecordCipher(write bool) runrecord.Cipher {
	enc, _ := d.workdirEncryption()
	t := enc.State()
	if t == nil || (write && !t.Encrypts()) {
		return nil
	}
	return runCipher{t.Named("run records")}
}

func (d *Deps) warnRuns(msg string) { d.logger().Warn(msg) }

// startRunRecord starts the record of a command (nil when recording is
// off or cannot be done: records never stop a command).
func startRunRecord(d *Deps, command string, op *operation) *recorder.Recorder {
	if op == nil {
		return startRecord(d, recorder.Config{Command: command})
	}
	cfg := recorder.Config{Command: command, Workspace: op.engine.Workspace, ConfigHash: recorder.ConfigHash(op.files), State: op.state,
		Shared: recorder.SharedRuns(op.mgr)}
	if op.cfg != nil && op.cfg.Module != nil && op.cfg.Module.Backend != nil {
		cfg.Backend = op.cfg.Module.Backend.Type
	}
	return startRecord(d, cfg)
}

// startRecord completes cfg with the working directory's settings and
// starts the record.
func startRecord(d *Deps, cfg recorder.Config) *recorder.Recorder {
	if !recorder.Enabled(d.Getenv) {
		return nil
	}
	cfg.LogDir = d.dataDir(runsLogDir)
	cfg.OpenStore = func() (runrecord.Store, error) { return openRunStore(d) }
	cfg.Args, cfg.Version = d.args, d.Version
	cfg.Cipher = d.runRecordCipher(true)
	cfg.Retention = recorder.RetentionFromEnv(d.Getenv)
	cfg.Warn = d.warnRuns
	cfg.Getenv = d.Getenv
	return recorder.Start(cfg)
}

// startApplyRecord starts the record of an apply-like command. With
// recording off, a -json stream still needs the outcomes: the recorder
// then keeps them without writing a record.
func startApplyRecord(d *Deps, command string, op *operation, json bool) *recorder.Recorder {
	if r := startRunRecord(d, command, op); r != nil || !json {
		return r
	}
	return recorder.Discard()
}

// resourceOutcomes are the recorder's outcomes for the -json stream.
func resourceOutcomes(r *recorder.Recorder) []views.ResourceOutcome {
	outs := r.Outcomes()
	if len(outs) == 0 {
		return nil
	}
	vs := make([]views.ResourceOutcome, len(outs))
	for i, o := range outs {
		vs[i] = views.ResourceOutcome(o)
	}
	return vs
}

// recordingManager records a run for each state written by a command
// that edits the state directly (state rm, mv, push, replace-provider,
// taint, untaint): one entry per resource instance whose object was
// added, removed, changed or tainted, compared with the state it read.
type recordingManager struct {
	statemgr.Manager
	d      *Deps
	before *states.State
}

// Unwrap returns the manager that stores the state.
func (m *recordingManager) Unwrap() statemgr.Manager { return m.Manager }

// Read implements statemgr.Manager and keeps a copy of what was read.
func (m *recordingManager) Read() (*states.State, []statemgr.Pending, error) {
	s, p, err := m.Manager.Read()
	if err == nil && s != nil {
		m.before = s.DeepCopy()
	}
	return s, p, err
}

// Write implements statemgr.Manager and records the run.
func (m *recordingManager) Write(s *states.State) error {
	err := m.Manager.Write(s)
	command := "state"
	if len(m.d.args) > 0 {
		command = m.d.args[0]
		if command == "state" && len(m.d.args) > 1 {
			command += " " + m.d.args[1]
		}
	}
	rec := startRecord(m.d, recorder.Config{Command: command, Workspace: workspaceName(m.d), State: m.before, Shared: recorder.SharedRuns(m.Manager)})
	if rec == nil {
		return err
	}
	rec.StateEdits(m.before, s)
	var diags hcl.Diagnostics
	if err != nil {
		diags = errorDiag("Failed to save state", err)
	}
	rec.Finish(s, diags, false)
	return err
}
