// Package controllers holds the 21 controllers that kube-controller-manager's
// StartControllers starts in the article (v1.5; PetSet and ScheduledJob as
// the article names them in era classic, StatefulSet and CronJob in era
// modern), one file each, modelled on their v1.5 Run and sync functions:
// their own or shared informers, workqueues and worker pools, periodic
// loops with Kubernetes' default periods, event pipelines, and the
// apiserver writes a learner can watch happen.
//
// Kubernetes source modelled: pkg/controller/... and
// cmd/kube-controller-manager/app/controllermanager.go (v1.5).
package controllers
