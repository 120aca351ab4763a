// Package configschema describes the shape of configuration and state objects:
// blocks with attributes and nested blocks, each nested block or nested
// attribute object having a nesting mode.
//
// It is a leaf package: it imports nothing from strata, and everything that
// needs to reason about a resource type's schema (configs, providers,
// plans/objchange, the engine) imports it.
package configschema
