// Package builtin collects the providers compiled into strata. Each lives in
// a subpackage implementing providers.Interface; Factories maps their
// provider addresses to factories for the engine.
package builtin
