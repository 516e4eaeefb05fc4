package controllers

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestCertificatesSync is maybeSignCertificate of one request: a request
// of the auto-approved group is approved; an approved one is signed by the
// cluster's CA; and v1.5 writes the status on every sync, changed or not.
func TestCertificatesSync(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "system:node:node-1"}}, key)
	if err != nil {
		t.Fatal(err)
	}
	newCSR := func(group string, approved bool) *certificatesv1.CertificateSigningRequest {
		csr := &certificatesv1.CertificateSigningRequest{ObjectMeta: metav1.ObjectMeta{Name: "node-1", UID: "uid-csr"},
			Spec: certificatesv1.CertificateSigningRequestSpec{Request: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}),
				Groups: []string{group}, SignerName: "kubernetes.io/kube-apiserver-client-kubelet", Usages: []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}}}
		if approved {
			csr.Status.Conditions = []certificatesv1.CertificateSigningRequestCondition{{Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue}}
		}
		return csr
	}
	approval := certificatesv1.CertificateSigningRequestCondition{Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue, Reason: "AutoApproved",
		Message: "Auto approving of all kubelet CSRs is enabled on the controller manager"}
	for _, tc := range []struct {
		name   string
		csr    *certificatesv1.CertificateSigningRequest
		signed bool
		// want is given the request as stored, the time, and the
		// certificate the sync wrote (checked to be the CA's for the
		// request's key).
		want func(csr *certificatesv1.CertificateSigningRequest, now metav1.Time, cert []byte) []k8stesting.Action
		opts []cmp.Option
	}{{
		name: "in the auto-approved group: approved, then signed",
		csr:  newCSR("system:bootstrappers", false), signed: true,
		want: func(csr *certificatesv1.CertificateSigningRequest, now metav1.Time, cert []byte) []k8stesting.Action {
			approved := csr.DeepCopy()
			approved.Status.Conditions = []certificatesv1.CertificateSigningRequestCondition{approval}
			approved.Status.Conditions[0].LastUpdateTime = now
			signed := approved.DeepCopy()
			signed.Status.Certificate = cert
			return []k8stesting.Action{k8stesting.NewRootUpdateSubresourceAction(resourceOf("certificatesigningrequests"), "approval", approved),
				updatesStatus("certificatesigningrequests", signed)}
		},
		// The status write carries the resourceVersion the approval returned.
		opts: []cmp.Option{cmpopts.IgnoreFields(metav1.ObjectMeta{}, "ResourceVersion")},
	}, {
		name: "approved already: signed",
		csr:  newCSR("system:authenticated", true), signed: true,
		want: func(csr *certificatesv1.CertificateSigningRequest, _ metav1.Time, cert []byte) []k8stesting.Action {
			signed := csr.DeepCopy()
			signed.Status.Certificate = cert
			return []k8stesting.Action{updatesStatus("certificatesigningrequests", signed)}
		},
	}, {
		name: "someone else's, not approved: the status written as it is",
		csr:  newCSR("system:authenticated", false),
		want: func(csr *certificatesv1.CertificateSigningRequest, _ metav1.Time, _ []byte) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("certificatesigningrequests", csr)}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				f.cc.Config.ApproveAllKubeletCSRsForGroup = "system:bootstrappers"
				ca, err := generateCA("kubernetes", make([]byte, ed25519.SeedSize), f.clk.Now())
				if err != nil {
					t.Fatal(err)
				}
				cc := newCertificateController(f.ctx, f.cc, ca)
				csr := add(f, cc.csrs, tc.csr)
				got, err := f.run(func(ctx context.Context) error { return cc.sync(ctx, "node-1") })
				if err != nil {
					t.Errorf("sync: %v", err)
				}
				var cert []byte
				if n := len(got); n > 0 {
					if st, ok := got[n-1].(k8stesting.UpdateActionImpl); ok {
						cert = st.GetObject().(*certificatesv1.CertificateSigningRequest).Status.Certificate
					}
				}
				if tc.signed {
					checkSignedBy(t, cert, ca.Leaf, key.Public())
				}
				checkActions(t, tc.want(csr, metav1.NewTime(f.clk.Now()), cert), got, tc.opts...)
			})
		})
	}
}

// checkSignedBy checks a PEM certificate: signed by ca, for the request's
// key and subject, a client certificate.
func checkSignedBy(t *testing.T, certPEM []byte, ca *x509.Certificate, pub any) {
	t.Helper()
	block, _ := pem.Decode(certPEM)
	if block == nil {
		t.Fatalf("no certificate written: %q", certPEM)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := cert.CheckSignatureFrom(ca); err != nil {
		t.Errorf("the certificate is not the CA's: %v", err)
	}
	if k, ok := cert.PublicKey.(ed25519.PublicKey); !ok || !k.Equal(pub) || cert.Subject.CommonName != "system:node:node-1" ||
		len(cert.ExtKeyUsage) != 1 || cert.ExtKeyUsage[0] != x509.ExtKeyUsageClientAuth {
		t.Errorf("certificate for %v, key %T, usages %v: want system:node:node-1's client certificate for the request's key", cert.Subject, cert.PublicKey, cert.ExtKeyUsage)
	}
}
