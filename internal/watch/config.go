package watch

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/strata-dev/strata/internal/addrs"
)

// ConfigFile is the optional schedule file of a working directory.
const ConfigFile = "strata-watch.hcl"

// FileConfig is a schedule file: the defaults of the flags and per-type
// and per-address refresh intervals.
//
//	interval    = "5m"
//	jitter      = 0.1
//	backoff_max = "1h"
//	resource_type "aws_instance" { interval = "1m" }
//	resource "module.net.aws_subnet.a" { interval = "30s" }
//	refresh_concurrency = 4
//	provider "hashicorp/aws" { refresh_concurrency = 2 }
type FileConfig struct {
	Interval   time.Duration
	Jitter     *float64
	BackoffMax time.Duration
	Rules      []Rule
	// RefreshLimits bound each provider's concurrent refreshes.
	RefreshLimits RefreshLimits
}

type fileSchema struct {
	Interval           *string         `hcl:"interval"`
	Jitter             *float64        `hcl:"jitter"`
	BackoffMax         *string         `hcl:"backoff_max"`
	RefreshConcurrency *int            `hcl:"refresh_concurrency"`
	Types              []ruleBlock     `hcl:"resource_type,block"`
	Resources          []ruleBlock     `hcl:"resource,block"`
	Providers          []providerBlock `hcl:"provider,block"`
}

type providerBlock struct {
	Source             string `hcl:"source,label"`
	RefreshConcurrency int    `hcl:"refresh_concurrency"`
}

type ruleBlock struct {
	Name     string `hcl:"name,label"`
	Interval string `hcl:"interval"`
}

// ParseConfig parses a schedule file's bytes.
func ParseConfig(src []byte, filename string) (*FileConfig, hcl.Diagnostics) {
	f, diags := hclparse.NewParser().ParseHCL(src, filename)
	if diags.HasErrors() {
		return nil, diags
	}
	var raw fileSchema
	if d := gohcl.DecodeBody(f.Body, nil, &raw); d.HasErrors() {
		return nil, append(diags, d...)
	}
	cfg := &FileConfig{Jitter: raw.Jitter}
	dur := func(what, s string) time.Duration {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid duration",
				Detail: fmt.Sprintf("In %s, %s = %q is not a positive duration such as \"30s\" or \"5m\".", filename, what, s)})
		}
		return d
	}
	if raw.Interval != nil {
		cfg.Interval = dur("interval", *raw.Interval)
	}
	if raw.BackoffMax != nil {
		cfg.BackoffMax = dur("backoff_max", *raw.BackoffMax)
	}
	if raw.Jitter != nil && (*raw.Jitter < 0 || *raw.Jitter >= 1) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid jitter",
			Detail: fmt.Sprintf("In %s, jitter is a fraction of the interval from 0 to less than 1, such as 0.1.", filename)})
	}
	concurrency := func(what string, n int) int {
		if n < 1 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid refresh concurrency",
				Detail: fmt.Sprintf("In %s, %s = %d: the number of refreshes of a provider run at once must be 1 or more.", filename, what, n)})
		}
		return n
	}
	if raw.RefreshConcurrency != nil {
		cfg.RefreshLimits.Default = concurrency("refresh_concurrency", *raw.RefreshConcurrency)
	}
	for _, b := range raw.Providers {
		p, err := addrs.ParseProviderSource(b.Source)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider source",
				Detail: fmt.Sprintf("In %s, provider %q: %s. Write the provider's source address, such as \"hashicorp/aws\".", filename, b.Source, err)})
			continue
		}
		if cfg.RefreshLimits.ByProvider == nil {
			cfg.RefreshLimits.ByProvider = map[string]int{}
		}
		cfg.RefreshLimits.ByProvider[p.String()] = concurrency("provider \""+b.Source+"\" refresh_concurrency", b.RefreshConcurrency)
	}
	for _, b := range raw.Resources {
		if _, d := addrs.ParseAbsResourceInstanceStr(b.Name); d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid resource address",
				Detail: fmt.Sprintf("In %s, %q is not a resource or resource instance address.", filename, b.Name)})
			continue
		}
		cfg.Rules = append(cfg.Rules, Rule{Address: b.Name, Interval: dur("resource \""+b.Name+"\" interval", b.Interval)})
	}
	for _, b := range raw.Types {
		cfg.Rules = append(cfg.Rules, Rule{Type: b.Name, Interval: dur("resource_type \""+b.Name+"\" interval", b.Interval)})
	}
	return cfg, diags
}
