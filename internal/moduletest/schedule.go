package moduletest

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-dev/strata/internal/configs"
)

// DefaultRunParallelism bounds how many run blocks of a file run at the
// same time, as terraform test's -run-parallelism default does.
const DefaultRunParallelism = 10

// stateKey is the state a run plans and applies against: its state_key,
// else its module's source, else the main state ("").
func stateKey(rc *configs.TestRun) string {
	if rc.StateKey == "" && rc.Module != nil {
		return rc.Module.Source
	}
	return rc.StateKey
}

// runDeps returns, for each run of f, the earlier runs it must wait for.
// As in terraform test, a run waits for every earlier run unless both are
// parallel and use different states; it also waits for the runs its
// expressions refer to (run.NAME), directly or through the file's
// variables and provider blocks.
func runDeps(f *File) [][]int {
	// Runs the file-level expressions refer to: any run may read them.
	shared := map[string]bool{}
	for _, expr := range f.Config.Variables {
		runRefs(expr, shared)
	}
	for _, p := range f.Config.Providers {
		bodyRunRefs(p.Config, shared)
	}
	deps := make([][]int, len(f.Runs))
	for i, r := range f.Runs {
		rc := r.Config
		refs := map[string]bool{}
		for name := range shared {
			refs[name] = true
		}
		for _, expr := range rc.Variables {
			runRefs(expr, refs)
		}
		for _, a := range rc.Asserts {
			runRefs(a.Condition, refs)
			runRefs(a.ErrorMessage, refs)
		}
		for j := 0; j < i; j++ {
			other := f.Runs[j].Config
			if !rc.Parallel || !other.Parallel || stateKey(rc) == stateKey(other) || refs[other.Name] {
				deps[i] = append(deps[i], j)
			}
		}
	}
	return deps
}

// bodyRunRefs adds the names of the runs the attributes of body and of its
// nested blocks refer to.
func bodyRunRefs(body hcl.Body, names map[string]bool) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		// A JSON body: its attributes, as far as they can be told
		// without a schema.
		attrs, _ := body.JustAttributes()
		for _, a := range attrs {
			runRefs(a.Expr, names)
		}
		return
	}
	for _, a := range b.Attributes {
		runRefs(a.Expr, names)
	}
	for _, blk := range b.Blocks {
		bodyRunRefs(blk.Body, names)
	}
}

// runRefs adds the names of the runs expr refers to (run.NAME).
func runRefs(expr hcl.Expression, names map[string]bool) {
	if expr == nil {
		return
	}
	for _, t := range expr.Variables() {
		if t.RootName() != "run" || len(t) < 2 {
			continue
		}
		if attr, ok := t[1].(hcl.TraverseAttr); ok {
			names[attr.Name] = true
		}
	}
}

// schedule runs the runs of fr's file, each once the runs it depends on
// have finished, at most limit at a time. exec runs one, with a function
// that reports it still running; a run whose
// dependencies did not all pass or fail (they errored or were skipped),
// or that starts after ctx is done, is skipped instead. The reporter hears
// of the runs in file order whatever order they finish in, so that the
// output does not depend on timing.
func (fr *fileRun) schedule(ctx context.Context, limit int, exec func(i int, r *Run, progress func(time.Duration))) {
	runs := fr.f.Runs
	deps := runDeps(fr.f)
	if limit <= 0 {
		limit = DefaultRunParallelism
	}
	seq := &sequencer{rep: fr.rn.Reporter, f: fr.f, runs: runs, started: make([]bool, len(runs)), done: make([]bool, len(runs)), startShown: make([]bool, len(runs))}
	finished := make([]chan struct{}, len(runs))
	for i := range finished {
		finished[i] = make(chan struct{})
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(finished[i])
			skip := false
			for _, j := range deps[i] {
				<-finished[j]
				if s := runs[j].Status; s != Pass && s != Fail {
					skip = true
				}
			}
			if !skip {
				sem <- struct{}{}
				defer func() { <-sem }()
			}
			if skip || ctx.Err() != nil || fr.rn.stopped() {
				r.Status = Skip
				seq.finish(i)
				return
			}
			seq.start(i)
			exec(i, r, func(elapsed time.Duration) { seq.progress(i, elapsed) })
			seq.finish(i)
		}()
	}
	wg.Wait()
}

// sequencer passes run events to the reporter in file order: a run's start
// is shown once every earlier run has finished or started, its end once
// every earlier run's end has been shown.
type sequencer struct {
	mu   sync.Mutex
	rep  Reporter
	f    *File
	runs []*Run
	// next is the first run whose end has not been shown.
	next                      int
	started, done, startShown []bool
}

func (s *sequencer) start(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started[i] = true
	s.flush()
}

// progress reports that run i is still running, once its start has been
// shown (a parallel run waiting for earlier ones to be reported is not).
func (s *sequencer) progress(i int, elapsed time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.startShown[i] && !s.done[i] {
		s.rep.RunProgress(s.f, s.runs[i], false, elapsed)
	}
}

func (s *sequencer) finish(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[i] = true
	s.flush()
}

func (s *sequencer) flush() {
	for s.next < len(s.runs) {
		i := s.next
		if s.started[i] && !s.startShown[i] {
			s.startShown[i] = true
			s.rep.RunStart(s.f, s.runs[i])
		}
		if !s.done[i] {
			return
		}
		if st := s.runs[i].Status; st != Skip {
			s.f.Status = s.f.Status.merge(st)
		}
		s.rep.RunDone(s.f, s.runs[i])
		s.next++
	}
}
