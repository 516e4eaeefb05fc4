package informer

import "fmt"

// Reflector selects the version of the classic reflector's ListAndWatch.
// Only the resync goroutine differs: how it ends.
type Reflector string

const (
	// ReflectorV15 is v1.5's ListAndWatch (the default): its resync
	// goroutine selects on cancelCh, which the call closes as it returns
	// (kubernetes#35672, "Fix resync goroutine leak in ListAndWatch").
	ReflectorV15 Reflector = "v1.5"
	// ReflectorV14 is the ListAndWatch of v1.3 and v1.4 before #35672 (it
	// was cherry-picked to release-1.4 in February 2017, #40895): the
	// resync goroutine selects only on resyncCh and stopCh, so it outlives
	// its call and every re-list leaves one behind (kubernetes#35015).
	ReflectorV14 Reflector = "v1.4"
)

// checkReflector fills in the default and refuses what the era cannot run:
// the pre-1.5 reflector is a classic one (client-go has had cancelCh since
// it was split out).
func (c *Config) checkReflector() error {
	switch c.Reflector {
	case "":
		c.Reflector = ReflectorV15
	case ReflectorV15:
	case ReflectorV14:
		if c.Era != Classic {
			return fmt.Errorf("informer %s: reflector %s is the classic era's; era %s has today's reflector", c.Name, c.Reflector, c.Era)
		}
	default:
		return fmt.Errorf("informer %s: unknown reflector %q: expected v1.4 or v1.5", c.Name, c.Reflector)
	}
	return nil
}
