package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/controllermanager"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// Check reports what in a scenario this kubeloom cannot run — parts that
// later versions simulate, flags the simulated binaries refuse — with the
// file, line and column, so that a caller can say so before it creates a
// recording. It also refuses a spec.kubelets.manifestDir that would read
// files outside the scenario's folder, unless AllowHostManifests.
func Check(sc *scenarios.Scenario, opts ...CheckOption) error {
	var c checkConfig
	for _, o := range opts {
		o(&c)
	}
	errs := checkManifestDir(sc, c)
	where := sc.Source
	if k := sc.Spec.Kubelets; k != nil && k.ManifestURL && k.ManifestDir == "" {
		errs = append(errs, fmt.Errorf("%s: spec.kubelets.manifestURL: kubeloom serves the manifests of <manifestDir>/%s at the URL; set manifestDir too",
			where, manifestURLDir))
	}
	if len(sc.Spec.Informers) == 0 && sc.Spec.ControllerManager == nil && sc.Spec.Kubelets == nil {
		errs = append(errs, fmt.Errorf("%s: spec: nothing to run: add spec.informers, spec.controllerManager or spec.kubelets", where))
	}
	if cm := sc.Spec.ControllerManager; cm != nil {
		for i, c := range cm.Controllers {
			if name := strings.TrimPrefix(c, "-"); c != "*" && !controllermanager.KnownController(name) {
				at := where
				if i < len(cm.ControllerPos) {
					at = cm.ControllerPos[i].String()
				}
				errs = append(errs, fmt.Errorf("%s: spec.controllerManager.controllers[%d]: %q is no controller kubeloom knows; "+
					"expected one of %s (or petset, scheduledjob)", at, i, c, strings.Join(controllermanager.ControllerIDs(), ", ")))
			}
		}
		for _, era := range sc.Spec.RunEras() {
			if err := controllermanager.CheckFlags(informer.Era(era), cm.Flags); err != nil {
				errs = append(errs, flagError(sc, era, err))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// flagError places a refused flag at its line in the scenario file.
func flagError(sc *scenarios.Scenario, era scenarios.Era, err error) error {
	pos := sc.Source
	var fe *controllermanager.FlagError
	if errors.As(err, &fe) {
		for written, p := range sc.Spec.ControllerManager.FlagPos {
			if strings.ReplaceAll(written, "_", "-") == strings.ReplaceAll(fe.Flag, "_", "-") {
				pos = p.String()
				return fmt.Errorf("%s: spec.controllerManager.flags.%s: %w (era %s)", pos, written, fe.Err, era)
			}
		}
	}
	return fmt.Errorf("%s: spec.controllerManager.flags: %w (era %s)", pos, err, era)
}
