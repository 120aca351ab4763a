package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

func TestEphemeralResourceLifecycle(t *testing.T) {
	logDir := t.TempDir()
	t.Setenv("STRATAFW_EPHEMERAL_LOG", logDir)
	p := start(t, "stratafw")
	ctx := context.Background()
	resp := p.GetProviderSchema(ctx)
	noDiags(t, "GetProviderSchema", resp.Diagnostics)
	s, ok := resp.EphemeralResourceTypes["stratafw_token"]
	if !ok {
		t.Fatalf("ephemeral resource types %v lack stratafw_token", resp.EphemeralResourceTypes)
	}
	if v := s.Block.Attributes["value"]; v == nil || !v.Computed || !v.Sensitive {
		t.Fatalf("value attribute: %#v", v)
	}
	config := objVal(s.Block, map[string]cty.Value{"name": cty.StringVal("a"), "renew_seconds": cty.NumberIntVal(30)})
	noDiags(t, "ValidateEphemeralResourceConfig", p.ValidateEphemeralResourceConfig(ctx, validateEphemeralReq(config)).Diagnostics)

	open := p.OpenEphemeralResource(ctx, openReq(config))
	noDiags(t, "OpenEphemeralResource", open.Diagnostics)
	if got := open.Result.GetAttr("value"); !got.RawEquals(cty.StringVal("token-a")) {
		t.Fatalf("result value %#v", got)
	}
	if until := time.Until(open.RenewAt); until < 20*time.Second || until > 31*time.Second {
		t.Fatalf("renew_at %v is not about 30s away", open.RenewAt)
	}
	if len(open.Private) == 0 {
		t.Fatal("no private data")
	}
	renew := p.RenewEphemeralResource(ctx, renewReq(open.Private))
	noDiags(t, "RenewEphemeralResource", renew.Diagnostics)
	if renew.RenewAt.IsZero() {
		t.Fatal("renew returned no renew_at")
	}
	noDiags(t, "CloseEphemeralResource", p.CloseEphemeralResource(ctx, closeReq(renew.Private)).Diagnostics)

	log, err := os.ReadFile(filepath.Join(logDir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(log)), "open a\nrenew a\nclose a"; got != want {
		t.Fatalf("provider saw %q, want %q", got, want)
	}

	unknown := objVal(s.Block, map[string]cty.Value{"name": cty.UnknownVal(cty.String)})
	noErrors(t, "ValidateEphemeralResourceConfig with unknowns", p.ValidateEphemeralResourceConfig(ctx, validateEphemeralReq(unknown)).Diagnostics)
	if d := findDiag(p.OpenEphemeralResource(ctx, openReq(objVal(s.Block, nil))).Diagnostics, "Unsupported ephemeral resource type"); d != nil {
		t.Fatalf("known type reported unsupported: %v", d)
	}
	bad := p.OpenEphemeralResource(ctx, openReqType("stratafw_nope", config))
	if findDiag(bad.Diagnostics, "Unsupported ephemeral resource type") == nil {
		t.Fatalf("want an unsupported type error, got %s", fmtDiags(bad.Diagnostics))
	}
}

func TestEphemeralResourceProtocol5(t *testing.T) {
	p := start(t, "stratav5")
	ctx := context.Background()
	resp := p.GetProviderSchema(ctx)
	noDiags(t, "GetProviderSchema", resp.Diagnostics)
	s, ok := resp.EphemeralResourceTypes["stratav5_lease"]
	if !ok {
		t.Fatalf("ephemeral resource types %v lack stratav5_lease", resp.EphemeralResourceTypes)
	}
	req := func(name cty.Value) cty.Value { return objVal(s.Block, map[string]cty.Value{"name": name}) }
	v := p.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: "stratav5_lease", Config: req(cty.StringVal(""))})
	if d := findDiag(v.Diagnostics, "Invalid name"); d == nil || !d.Attribute.Equals(cty.GetAttrPath("name")) {
		t.Fatalf("want Invalid name at name, got %s", fmtDiags(v.Diagnostics))
	}
	open := p.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: "stratav5_lease", Config: req(cty.StringVal("x"))})
	noDiags(t, "OpenEphemeralResource", open.Diagnostics)
	if got := open.Result.GetAttr("value"); !got.RawEquals(cty.StringVal("lease-x")) {
		t.Fatalf("result value %#v", got)
	}
	if string(open.Private) != "x" || time.Until(open.RenewAt) < 50*time.Minute {
		t.Fatalf("private %q, renew_at %v", open.Private, open.RenewAt)
	}
	renew := p.RenewEphemeralResource(ctx, providers.RenewEphemeralResourceRequest{TypeName: "stratav5_lease", Private: open.Private})
	noDiags(t, "RenewEphemeralResource", renew.Diagnostics)
	if string(renew.Private) != "x+" {
		t.Fatalf("renewed private %q", renew.Private)
	}
	noDiags(t, "CloseEphemeralResource", p.CloseEphemeralResource(ctx, providers.CloseEphemeralResourceRequest{TypeName: "stratav5_lease", Private: renew.Private}).Diagnostics)
	if d := p.CloseEphemeralResource(ctx, providers.CloseEphemeralResourceRequest{TypeName: "stratav5_lease"}).Diagnostics; findDiag(d, "Missing private data") == nil {
		t.Fatalf("want the provider's error, got %s", fmtDiags(d))
	}
}
