# strata's build, demo, test and benchmark entry points. See README.md.

GO      ?= go
BIN     := bin/strata
VERSION ?= 0.1.0
DEMO    := examples/quickstart
BENCH_N ?= 2000,10000,100000
BENCH_WORKLOADS ?= data,null
# The null workload (a plugin call per operation) runs at sizes up to
# BENCH_PLUGIN_MAX; OpenTofu at sizes up to 10,000, Terraform (whose apply
# time grows quadratically) up to 2,000.
BENCH_PLUGIN_MAX ?= 2000
# Interleaved rounds per size (medians and per-round ratios), and the
# OpenTofu binary to compare with (default: the CI's OpenTofu 1.12.6 when
# it is in ~/.cache/strata-ci, else $$STRATA_TOFU, else tofu on PATH).
BENCH_RUNS ?= 1
BENCH_TOFU ?= $(wildcard $(HOME)/.cache/strata-ci/opentofu-v1.12.6/tofu)

.PHONY: build demo test vet lint fmt-check bench compat tf-fixtures clean

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) .

# The main job on the built-in provider and local state: init, plan, apply,
# a second plan that must show no changes, and destroy.
demo: build
	rm -rf $(DEMO)/.terraform $(DEMO)/terraform.tfstate $(DEMO)/terraform.tfstate.backup
	$(BIN) -chdir=$(DEMO) init
	$(BIN) -chdir=$(DEMO) plan
	$(BIN) -chdir=$(DEMO) apply -auto-approve
	$(BIN) -chdir=$(DEMO) plan -detailed-exitcode
	$(BIN) -chdir=$(DEMO) output
	$(BIN) -chdir=$(DEMO) destroy -auto-approve
	rm -rf $(DEMO)/.terraform $(DEMO)/terraform.tfstate $(DEMO)/terraform.tfstate.backup

# All tests: formatting, vet, unit and end-to-end tests, and the race
# detector on the engine and state packages.
test: vet fmt-check lint
	$(GO) test -timeout 20m ./...
	$(GO) test -race ./internal/engine/... ./internal/states/... ./internal/plans/... ./internal/moduletest/...

vet:
	$(GO) vet ./...

# staticcheck, pinned, fetched through the module proxy on first use.
lint:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# Apply BENCH_N resources (comma-separated sizes) from empty, then a no-op
# plan, for each workload (terraform_data; null_resource through the
# hashicorp/null plugin built from COMPAT_REPOS), with strata, terraform
# and tofu (when on PATH or given: BENCH_TOFU=path, STRATA_TOFU); prints
# times, CPU, peak memory and ratios, and a closing table with a line per
# command and size (the rows of issue 17's goals).
bench: build
	$(GO) run ./internal/bench -n $(BENCH_N) -workloads $(BENCH_WORKLOADS) -plugin-max $(BENCH_PLUGIN_MAX) -strata $(BIN) -repos $(COMPAT_REPOS) -cache $(COMPAT_CACHE) -runs $(BENCH_RUNS) $(if $(BENCH_TOFU),-tofu $(BENCH_TOFU))

# Other people's test suites, written against Terraform, run against
# strata and (when on PATH) terraform: Terraform's equivalence tests
# (golden plan, apply and show outputs; needs Terraform's repository in
# COMPAT_REPOS), terraform-exec's end-to-end tests,
# terraform-plugin-testing's tests and the acceptance tests of the null,
# random, local, time, tls, archive, external, http and cloudinit
# providers. See
# website/docs/compat.md. COMPAT_REPOS holds the provider repositories.
COMPAT_REPOS  ?= /work/.mirror
COMPAT_SUITES ?=
COMPAT_CACHE  ?= bin/compat-cache
COMPAT_FLAGS  ?=
compat: build
	$(GO) run ./internal/compat -strata $(BIN) -repos $(COMPAT_REPOS) -suites "$(COMPAT_SUITES)" -cache $(COMPAT_CACHE) $(COMPAT_FLAGS)

# Terraform's own `terraform test` fixtures (internal/command/testdata/test
# in Terraform's repository TF_REPO, a bare git directory, at the tag of the
# terraform on PATH) run through terraform and strata with a stand-in for
# Terraform's internal test provider; each fixture whose exit codes,
# output, -json events or recovery files differ fails, and the last line
# counts them. See TestE2ETerraformFixtures.
TF_REPO ?= $(COMPAT_REPOS)/hashicorp+terraform/repo
TF_REF  ?= v$(shell terraform version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p')
tf-fixtures:
	rm -rf bin/tf-fixtures && mkdir -p bin/tf-fixtures
	git --git-dir=$(TF_REPO) archive $(TF_REF) internal/command/testdata/test | tar -x -C bin/tf-fixtures
	STRATA_TF_FIXTURES=$(CURDIR)/bin/tf-fixtures/internal/command/testdata/test $(GO) test ./internal/command -run 'TestE2ETerraformFixtures$$' -count=1 -v -timeout 60m

clean:
	rm -rf bin

# Regenerate the Go code of the provider plugin protocol definitions
# (internal/providers/plugin/proto). Needs protoc (Debian: protobuf-compiler);
# the Go generators are installed, pinned, into bin/tools.
.PHONY: proto
proto:
	GOBIN=$(CURDIR)/bin/tools $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.11
	GOBIN=$(CURDIR)/bin/tools $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
	cd internal/providers/plugin/proto && for v in tfplugin5 tfplugin6; do \
		protoc --plugin=protoc-gen-go=$(CURDIR)/bin/tools/protoc-gen-go \
			--plugin=protoc-gen-go-grpc=$(CURDIR)/bin/tools/protoc-gen-go-grpc \
			--go_out=. --go_opt=paths=source_relative \
			--go-grpc_out=. --go-grpc_opt=paths=source_relative \
			$$v/$$v.proto || exit 1; \
	done
