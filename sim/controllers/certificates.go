package controllers

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"hash/fnv"
	"math/big"
	"slices"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// GenerateCA is the value of --cluster-signing-cert-file and
// --cluster-signing-key-file that makes kubeloom generate a throwaway CA in
// memory, for scenarios that want the certificate controller to run
// without shipping a CA's files.
const GenerateCA = "generate"

// CertificateController (pkg/controller/certificates/controller.go, v1.5):
// its constructor builds an event broadcaster first, then loads the
// cluster signing CA from --cluster-signing-cert-file and -key-file — and
// fails when they are missing, which v1.5.4 logs at every default start,
// leaving the broadcaster's goroutines behind. Once running, one worker
// auto-approves CSRs of the group --insecure-experimental-approve-all-
// kubelet-csrs-for-group and signs approved ones with the CA.
func startCertificates(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("certificates.k8s.io/v1alpha1", "certificates.k8s.io/v1")) {
		return "certificatesigningrequests are not served"
	}
	c.NewEvents(ctx, "certificate-controller", true, true) // no recorder is ever made from it in v1.5
	ca, err := loadCA(c, goroutine.RuntimeFrom(ctx).Clock().Now())
	if err != nil {
		return "Failed to start certificate controller: " + err.Error()
	}
	cc := newCertificateController(ctx, c, ca)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/certificatesigningrequests/run", func(ctx context.Context) {
		cc.csrs.Run(ctx)
		cc.queue.Workers(ctx, "controller/certificatesigningrequests/worker", 1, "maybeSignCertificate", cc.sync)
		<-ctx.Done()
	})
	return ""
}

// newCertificateController is the rest of NewCertificateController once
// the CA has loaded: its own CSR informer, queue and handler.
func newCertificateController(ctx context.Context, c *Context, ca *tls.Certificate) *certificateController {
	cc := &certificateController{c: c, ca: ca, csrs: c.NewInformer("certificatesigningrequests", c.ResyncPeriod(), informer.Private)}
	cc.queue = workqueue.New(ctx, "certificate")
	cc.csrs.AddHandler(ctx, enqueueHandlers("certificate-controller", cc.queue))
	return cc
}

type certificateController struct {
	c     *Context
	ca    *tls.Certificate
	csrs  *informer.Informer
	queue *workqueue.Queue
}

// loadCA reads the signing CA, or generates one for GenerateCA.
func loadCA(c *Context, now time.Time) (*tls.Certificate, error) {
	certFile, keyFile := c.Config.ClusterSigningCertFile, c.Config.ClusterSigningKeyFile
	if certFile == GenerateCA && keyFile == GenerateCA {
		var seed [ed25519.SeedSize]byte
		for i := range seed {
			seed[i] = byte(c.Rand.UintN(256))
		}
		return generateCA(c.Config.ClusterName, seed[:], now)
	}
	certPEM, err := c.ReadFile(certFile)
	if err != nil {
		return nil, err
	}
	keyPEM, err := c.ReadFile(keyFile)
	if err != nil {
		return nil, err
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	pair.Leaf, err = x509.ParseCertificate(pair.Certificate[0])
	return &pair, err
}

// generateCA makes the throwaway CA: an Ed25519 key from the seed, valid
// from an hour before the simulated now. Ed25519 keys and signatures are
// deterministic, so the CA and every certificate it signs are the same in
// every run of a scenario (Go draws ECDSA keys from the system's source
// whatever reader it is given).
func generateCA(cluster string, seed []byte, now time.Time) (*tls.Certificate, error) {
	key := ed25519.NewKeyFromSeed(seed)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cluster + "-ca (kubeloom)"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

func (cc *certificateController) sync(ctx context.Context, key string) error {
	csr, ok := get[*certificatesv1.CertificateSigningRequest](cc.csrs, key)
	if !ok {
		return nil // "csr has been deleted"
	}
	csr = csr.DeepCopy()
	approved, denied := false, false
	for _, c := range csr.Status.Conditions {
		approved = approved || c.Type == certificatesv1.CertificateApproved
		denied = denied || c.Type == certificatesv1.CertificateDenied
	}
	group := cc.c.Config.ApproveAllKubeletCSRsForGroup
	if !approved && !denied && group != "" && slices.Contains(csr.Spec.Groups, group) {
		csr.Status.Conditions = append(csr.Status.Conditions, certificatesv1.CertificateSigningRequestCondition{
			Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue, Reason: "AutoApproved",
			Message:        "Auto approving of all kubelet CSRs is enabled on the controller manager",
			LastUpdateTime: metav1.NewTime(goroutine.RuntimeFrom(ctx).Clock().Now())})
		out, err := call(ctx, "certificatesigningrequests.UpdateApproval", key, func(ctx context.Context) (*certificatesv1.CertificateSigningRequest, error) {
			return cc.c.Client.CertificatesV1().CertificateSigningRequests().UpdateApproval(ctx, csr.Name, csr, metav1.UpdateOptions{})
		})
		if err != nil {
			return err
		}
		csr, approved = out.DeepCopy(), true
	}
	if approved && len(csr.Status.Certificate) == 0 {
		cert, err := cc.sign(ctx, csr)
		if err != nil {
			goroutine.SpanFrom(ctx).RecordError(err)
			return nil // a bad request is not retried
		}
		csr.Status.Certificate = cert
	}
	// v1.5 writes the status on every sync, changed or not.
	_, err := call(ctx, "certificatesigningrequests.UpdateStatus", key, func(ctx context.Context) (*certificatesv1.CertificateSigningRequest, error) {
		return cc.c.Client.CertificatesV1().CertificateSigningRequests().UpdateStatus(ctx, csr, metav1.UpdateOptions{})
	})
	return err
}

// sign issues a certificate for the request, valid for a year.
func (cc *certificateController) sign(ctx context.Context, csr *certificatesv1.CertificateSigningRequest) ([]byte, error) {
	_, sp := goroutine.Start(ctx, "Sign")
	defer sp.End()
	block, _ := pem.Decode(csr.Spec.Request)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, errors.New("the request is not a PEM-encoded CERTIFICATE REQUEST")
	}
	req, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return nil, err
	}
	if err := req.CheckSignature(); err != nil {
		return nil, fmt.Errorf("the request's signature is invalid: %w", err)
	}
	// A serial number from the request's UID: unique, and the same in every run.
	h := fnv.New64a()
	h.Write([]byte(csr.UID))
	serial := new(big.Int).SetUint64(h.Sum64() >> 2)
	now := goroutine.RuntimeFrom(ctx).Clock().Now()
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: req.Subject, DNSNames: req.DNSNames, IPAddresses: req.IPAddresses,
		NotBefore: now.Add(-5 * time.Minute), NotAfter: now.Add(365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment, ExtKeyUsage: extKeyUsages(csr.Spec.Usages)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, cc.ca.Leaf, req.PublicKey, cc.ca.PrivateKey.(crypto.Signer))
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

func extKeyUsages(us []certificatesv1.KeyUsage) []x509.ExtKeyUsage {
	var out []x509.ExtKeyUsage
	for _, u := range us {
		switch u {
		case certificatesv1.UsageClientAuth:
			out = append(out, x509.ExtKeyUsageClientAuth)
		case certificatesv1.UsageServerAuth:
			out = append(out, x509.ExtKeyUsageServerAuth)
		}
	}
	if len(out) == 0 {
		out = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	return out
}
