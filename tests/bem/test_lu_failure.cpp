// The messages of a failed LU solve against the status conventions that
// LAPACK (zgesv) and cuSOLVER (cusolverDnZgetrf, cusolverDnZgetrs) document:
// info = i > 0 from a factorisation names U(i,i), info = −i the i-th
// parameter (cuSOLVER's handle not counted), anything else is undocumented.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "gpu/bem/lu_failure.hpp"

namespace {

using namespace geobem::bem;

bool contains(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

TEST(LuFailure, ZeroPivotOfAFactorisationNamesUii) {
  EXPECT_EQ(lu_failure_message(7, cusolver_zgetrf(), 12),
            "CQ frequency 7: the LU factorisation (cuSOLVER cusolverDnZgetrf) failed with info = 12: U(12,12) is "
            "exactly zero, so the BEM system of this frequency is singular and was not solved");
  const std::string zgesv = lu_failure_message(0, lapack_zgesv(), 1);
  EXPECT_TRUE(contains(zgesv, "CQ frequency 0: the LU factorisation and solve (LAPACK zgesv)")) << zgesv;
  EXPECT_TRUE(contains(zgesv, "U(1,1) is exactly zero")) << zgesv;
  // The batched LU also reports a column whose candidates are all NaN.
  const std::string batched = lu_failure_message(3, batched_lu_factorisation(), 71);
  EXPECT_TRUE(contains(batched, "U(71,71) is zero or not a number")) << batched;
}

TEST(LuFailure, NegativeInfoNamesTheParameter) {
  // getrs(handle, trans, n, nrhs, A, lda, devIpiv, B, ldb, devInfo): the 5th after the handle is lda.
  EXPECT_EQ(lu_failure_message(4, cusolver_zgetrs(), -5),
            "CQ frequency 4: the LU solve (cuSOLVER cusolverDnZgetrs) failed with info = -5: its parameter 5 (lda) "
            "had an illegal value");
  // getrf(handle, m, n, A, lda, Workspace, devIpiv, devInfo); zgesv(N, NRHS, A, LDA, IPIV, B, LDB, INFO).
  EXPECT_TRUE(contains(lu_failure_message(4, cusolver_zgetrf(), -3), "its parameter 3 (A) had an illegal value"));
  EXPECT_TRUE(contains(lu_failure_message(4, cusolver_zgetrf(), -7), "its parameter 7 (devInfo)"));
  EXPECT_TRUE(contains(lu_failure_message(2, lapack_zgesv(), -4), "its parameter 4 (LDA) had an illegal value"));
}

TEST(LuFailure, UndocumentedStatusesAreSaidToBe) {
  // A solve never reports a zero pivot; getrf has 7 parameters; the batched LU reports no parameter.
  for (const std::string& message :
       {lu_failure_message(1, cusolver_zgetrs(), 3), lu_failure_message(1, cusolver_zgetrf(), -8),
        lu_failure_message(1, batched_lu_factorisation(), -1), lu_failure_message(1, lapack_zgesv(), INT_MIN)}) {
    EXPECT_TRUE(contains(message, "does not document")) << message;
    EXPECT_FALSE(contains(message, "U(") || contains(message, "parameter")) << message;
  }
  EXPECT_TRUE(contains(lu_failure_message(1, cusolver_zgetrs(), 3),
                       "the LU solve (cuSOLVER cusolverDnZgetrs) failed with info = 3, a status cuSOLVER "
                       "cusolverDnZgetrs does not document"));
}

}  // namespace
