// Package lang evaluates expressions and blocks of the configuration
// language: it finds the references an expression makes, asks a Data
// implementation (provided by the engine) for their values, and evaluates
// with the function library of package funcs.
//
// It imports addrs, configschema and lang/funcs; the engine imports it.
package lang
