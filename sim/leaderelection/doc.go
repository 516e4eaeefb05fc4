// Package leaderelection is leader election as kube-controller-manager runs
// it, on the simulation clock: the acquire and renew loops of
// pkg/client/leaderelection (v1.5, era classic) and of client-go's
// tools/leaderelection (today, era modern), over client-go's
// resourcelock.Interface — the Endpoints-annotation lock of v1.5, which
// client-go no longer has and this package implements, or client-go's own
// Lease lock.
//
// client-go's LeaderElector cannot be used as it is: its clock is fixed to
// the real one and it measures a lease in whole seconds of that clock, so
// at simulation speeds where 15 simulated seconds are less than one real
// second every lease would look expired. The loops here are the same
// algorithm, line by line, in simulated time.
package leaderelection
