package plans

// Action is what a plan will do to one resource instance or output.
type Action rune

// The actions a change may have. Their runes are the ones Terraform uses.
const (
	NoOp             Action = 0
	Create           Action = '+'
	Read             Action = '←'
	Update           Action = '~'
	DeleteThenCreate Action = '∓'
	CreateThenDelete Action = '±'
	Delete           Action = '-'
	// Forget removes an object from the state without destroying it (a
	// removed block with destroy = false).
	Forget Action = '.'
)

// String returns the action's name as used in the JSON plan: "no-op",
// "create", "read", "update", "delete".
func (a Action) String() string {
	switch a {
	case NoOp:
		return "NoOp"
	case Create:
		return "Create"
	case Read:
		return "Read"
	case Update:
		return "Update"
	case DeleteThenCreate:
		return "DeleteThenCreate"
	case CreateThenDelete:
		return "CreateThenDelete"
	case Delete:
		return "Delete"
	case Forget:
		return "Forget"
	default:
		panic("plans: unknown action")
	}
}

// IsReplace reports whether the action replaces an object.
func (a Action) IsReplace() bool {
	return a == DeleteThenCreate || a == CreateThenDelete
}

// ActionReason says why an action was chosen when the reason is not
// obvious from the configuration alone.
type ActionReason int

const (
	// ReasonNone means no special reason.
	ReasonNone ActionReason = iota
	// ReasonReplaceBecauseCannotUpdate: the provider said some attribute
	// changes require replacement.
	ReasonReplaceBecauseCannotUpdate
	// ReasonReplaceBecauseTainted: the object is tainted.
	ReasonReplaceBecauseTainted
	// ReasonReplaceByRequest: the user asked for replacement (-replace).
	ReasonReplaceByRequest
	// ReasonReplaceByTriggers: something in lifecycle.replace_triggered_by
	// changes.
	ReasonReplaceByTriggers
	// ReasonDeleteBecauseNoResourceConfig: the resource is not in the
	// configuration any more.
	ReasonDeleteBecauseNoResourceConfig
	// ReasonDeleteBecauseWrongRepetition: the instance key does not match
	// the resource's count/for_each mode.
	ReasonDeleteBecauseWrongRepetition
	// ReasonDeleteBecauseCountIndex: the count no longer covers the index.
	ReasonDeleteBecauseCountIndex
	// ReasonDeleteBecauseEachKey: for_each no longer has the key.
	ReasonDeleteBecauseEachKey
	// ReasonDeleteBecauseNoModule: the module instance holding the
	// resource is no longer one of its module call's instances.
	ReasonDeleteBecauseNoModule
	// ReasonReadBecauseConfigUnknown: a data source is read during apply
	// because its configuration has values known only then.
	ReasonReadBecauseConfigUnknown
	// ReasonReadBecauseDependencyPending: a data source is read during
	// apply because something it depends on has changes planned.
	ReasonReadBecauseDependencyPending
	// ReasonReadBecauseCheckNested: a data source in a check block is
	// read again during apply, for the check.
	ReasonReadBecauseCheckNested
	// ReasonDeleteBecauseNoMoveTarget: a moved block moved the object to
	// a resource that is not in the configuration.
	ReasonDeleteBecauseNoMoveTarget
	// ReasonDeleteBecauseEnabledFalse: OpenTofu's lifecycle enabled is
	// false.
	ReasonDeleteBecauseEnabledFalse
)

// String is the reason's name in Terraform's plan JSON ("action_reason"),
// such as "replace_because_tainted"; "" for ReasonNone.
func (r ActionReason) String() string {
	switch r {
	case ReasonReplaceBecauseCannotUpdate:
		return "replace_because_cannot_update"
	case ReasonReplaceBecauseTainted:
		return "replace_because_tainted"
	case ReasonReplaceByRequest:
		return "replace_by_request"
	case ReasonReplaceByTriggers:
		return "replace_by_triggers"
	case ReasonDeleteBecauseNoResourceConfig:
		return "delete_because_no_resource_config"
	case ReasonDeleteBecauseWrongRepetition:
		return "delete_because_wrong_repetition"
	case ReasonDeleteBecauseCountIndex:
		return "delete_because_count_index"
	case ReasonDeleteBecauseEachKey:
		return "delete_because_each_key"
	case ReasonDeleteBecauseNoModule:
		return "delete_because_no_module"
	case ReasonReadBecauseConfigUnknown:
		return "read_because_config_unknown"
	case ReasonReadBecauseDependencyPending:
		return "read_because_dependency_pending"
	case ReasonReadBecauseCheckNested:
		return "read_because_check_nested"
	case ReasonDeleteBecauseNoMoveTarget:
		return "delete_because_no_move_target"
	case ReasonDeleteBecauseEnabledFalse:
		return "delete_because_enabled_false"
	}
	return ""
}
