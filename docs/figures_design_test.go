package docs

// The figures of docs/design.md.
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		"design.cm-spans": func(d *docRuns) (figure, error) { return about(len(d.of("cm-startup").spans), 0.1), nil },
		// The renew loop, and the goroutines of the garbage collector's
		// monitor of endpoints, which every renewal wakes.
		"design.renew-spans": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			in, err := r.instance("cm-0")
			if err != nil {
				return figure{}, err
			}
			n := 0
			for _, l := range in.Lanes {
				if l.Goroutine == "cm/leader-renew" || l.Attributes.String("informer.name") == "gc-endpoints" {
					n += 1 + len(l.Iterations) + len(l.Calls)
				}
			}
			return about(n, 0.1), nil
		},
	})
}
