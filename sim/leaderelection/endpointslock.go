package leaderelection

//lint:file-ignore SA1019 v1.5's resourcelock.EndpointsLock keeps the leader record on a core/v1 Endpoints object; the classic era models it

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

// LeaderAnnotation holds the leader election record on the lock object
// (resourcelock.LeaderElectionRecordAnnotationKey, v1.5).
const LeaderAnnotation = "control-plane.alpha.kubernetes.io/leader"

// EndpointsLock is v1.5's resourcelock.EndpointsLock: the record lives in
// an annotation of an Endpoints object (kube-system/kube-controller-manager
// for the controller-manager). client-go removed it in 1.24 (Lease locks
// only); this is the same type against today's typed client.
type EndpointsLock struct {
	EndpointsMeta metav1.ObjectMeta
	Client        typedcorev1.EndpointsGetter
	LockConfig    rl.ResourceLockConfig
	e             *corev1.Endpoints
}

var _ rl.Interface = (*EndpointsLock)(nil)

// record is the annotation's JSON as v1.5 wrote it.
type record struct {
	HolderIdentity       string      `json:"holderIdentity"`
	LeaseDurationSeconds int         `json:"leaseDurationSeconds"`
	AcquireTime          metav1.Time `json:"acquireTime"`
	RenewTime            metav1.Time `json:"renewTime"`
	LeaderTransitions    int         `json:"leaderTransitions"`
}

// Get returns the election record from the Endpoints annotation.
func (el *EndpointsLock) Get(ctx context.Context) (*rl.LeaderElectionRecord, []byte, error) {
	e, err := el.Client.Endpoints(el.EndpointsMeta.Namespace).Get(ctx, el.EndpointsMeta.Name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, err
	}
	el.e = e
	if el.e.Annotations == nil {
		el.e.Annotations = map[string]string{}
	}
	var r record
	raw, found := el.e.Annotations[LeaderAnnotation]
	if found {
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			return nil, nil, err
		}
	}
	return &rl.LeaderElectionRecord{HolderIdentity: r.HolderIdentity, LeaseDurationSeconds: r.LeaseDurationSeconds,
		AcquireTime: r.AcquireTime, RenewTime: r.RenewTime, LeaderTransitions: r.LeaderTransitions}, []byte(raw), nil
}

// Create creates the Endpoints object with the record.
func (el *EndpointsLock) Create(ctx context.Context, ler rl.LeaderElectionRecord) error {
	raw, err := encode(ler)
	if err != nil {
		return err
	}
	el.e, err = el.Client.Endpoints(el.EndpointsMeta.Namespace).Create(ctx, &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{
			Name:        el.EndpointsMeta.Name,
			Namespace:   el.EndpointsMeta.Namespace,
			Annotations: map[string]string{LeaderAnnotation: raw},
		},
	}, metav1.CreateOptions{})
	return err
}

// Update writes the record into the Endpoints object last read. The object
// carries the resourceVersion it was read at, so a candidate that lost a
// race gets a conflict, as it would from a real apiserver.
func (el *EndpointsLock) Update(ctx context.Context, ler rl.LeaderElectionRecord) error {
	if el.e == nil {
		return errors.New("endpoint not initialized, call get or create first")
	}
	raw, err := encode(ler)
	if err != nil {
		return err
	}
	el.e.Annotations[LeaderAnnotation] = raw
	e, err := el.Client.Endpoints(el.EndpointsMeta.Namespace).Update(ctx, el.e, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	el.e = e
	return nil
}

// RecordEvent records an event about the lock object.
func (el *EndpointsLock) RecordEvent(s string) {
	if el.LockConfig.EventRecorder == nil || el.e == nil {
		return
	}
	events := fmt.Sprintf("%v %v", el.LockConfig.Identity, s)
	subject := &corev1.Endpoints{ObjectMeta: el.e.ObjectMeta}
	subject.Kind, subject.APIVersion = "Endpoints", "v1"
	el.LockConfig.EventRecorder.Eventf(subject, corev1.EventTypeNormal, "LeaderElection", "%s", events)
}

// Describe names the lock object.
func (el *EndpointsLock) Describe() string {
	return fmt.Sprintf("%v/%v", el.EndpointsMeta.Namespace, el.EndpointsMeta.Name)
}

// Identity is the candidate's identity.
func (el *EndpointsLock) Identity() string { return el.LockConfig.Identity }

func encode(ler rl.LeaderElectionRecord) (string, error) {
	b, err := json.Marshal(record{HolderIdentity: ler.HolderIdentity, LeaseDurationSeconds: ler.LeaseDurationSeconds,
		AcquireTime: ler.AcquireTime, RenewTime: ler.RenewTime, LeaderTransitions: ler.LeaderTransitions})
	return string(b), err
}
