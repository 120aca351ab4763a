package dag

// nodeSet is a vertex's set of neighbours in one direction. Most vertices
// have a few, and a slice holds them in a fraction of a map's memory; a
// vertex with many (a provider configuration every resource depends on)
// also gets an index, so that adding, finding and removing a neighbour
// stay constant-time. The order of the slice means nothing: callers sort
// by insertion position where order matters.
type nodeSet[V comparable] struct {
	list []*node[V]
	// index maps each member to its position in list, once list is
	// longer than smallSet.
	index map[*node[V]]int
}

// smallSet is the size up to which a nodeSet is searched linearly.
const smallSet = 16

func (s *nodeSet[V]) len() int { return len(s.list) }

func (s *nodeSet[V]) find(n *node[V]) int {
	if s.index != nil {
		if i, ok := s.index[n]; ok {
			return i
		}
		return -1
	}
	for i, m := range s.list {
		if m == n {
			return i
		}
	}
	return -1
}

func (s *nodeSet[V]) has(n *node[V]) bool { return s.find(n) >= 0 }

// add adds n, unless it is a member already.
func (s *nodeSet[V]) add(n *node[V]) {
	if s.has(n) {
		return
	}
	s.list = append(s.list, n)
	switch {
	case s.index != nil:
		s.index[n] = len(s.list) - 1
	case len(s.list) > smallSet:
		s.index = make(map[*node[V]]int, 2*len(s.list))
		for i, m := range s.list {
			s.index[m] = i
		}
	}
}

// remove removes n, if it is a member: the last member takes its place.
func (s *nodeSet[V]) remove(n *node[V]) {
	i := s.find(n)
	if i < 0 {
		return
	}
	last := len(s.list) - 1
	if i != last {
		s.list[i] = s.list[last]
		if s.index != nil {
			s.index[s.list[i]] = i
		}
	}
	s.list[last] = nil
	s.list = s.list[:last]
	if s.index != nil {
		delete(s.index, n)
	}
}
