import { ApolloProvider } from "@apollo/client/react";
import { lazy, Suspense } from "react";
import { BrowserRouter, Route, Routes } from "react-router-dom";
import { FullPageLoading } from "./components/FullPageLoading";
import { AuthProvider } from "./features/auth/components/AuthProvider";
import { RequireAdmin } from "./features/auth/components/RequireAdmin";
import { RequireAuth } from "./features/auth/components/RequireAuth";
import { AppLayout } from "./features/layout/components/AppLayout";
import { AppearanceProvider } from "./features/preferences/components/AppearanceProvider";
import { PreferencesProvider } from "./features/preferences/components/PreferencesProvider";
import { ToastProvider } from "./features/toast/components/ToastProvider";
import { createApolloClient } from "./lib/apollo";

// Every screen is its own chunk: /login loads only what it needs.
const LoginRoute = lazy(() => import("./routes/LoginRoute"));
const RegisterRoute = lazy(() => import("./routes/RegisterRoute"));
const VerifyEmailRoute = lazy(() => import("./routes/VerifyEmailRoute"));
const ForgotPasswordRoute = lazy(() => import("./routes/ForgotPasswordRoute"));
const ResetPasswordRoute = lazy(() => import("./routes/ResetPasswordRoute"));
const TermsRoute = lazy(() => import("./routes/TermsRoute"));
const NotFoundRoute = lazy(() => import("./routes/NotFoundRoute"));
const HomeRoute = lazy(() => import("./routes/HomeRoute"));
const KnowledgeRoute = lazy(() => import("./routes/KnowledgeRoute"));
const ProfileRoute = lazy(() => import("./routes/ProfileRoute"));
const AdminRoute = lazy(() => import("./routes/AdminRoute"));
const AdminNotionRoute = lazy(() => import("./routes/AdminNotionRoute"));
const SharedChatRoute = lazy(() => import("./routes/SharedChatRoute"));

const client = createApolloClient();

export function App() {
  return (
    <ApolloProvider client={client}>
      <AuthProvider>
        <PreferencesProvider>
          <AppearanceProvider>
            <ToastProvider>
              <BrowserRouter>
                <Suspense fallback={<FullPageLoading />}>
                  <Routes>
                    <Route path="/login" element={<LoginRoute />} />
                    <Route path="/register" element={<RegisterRoute />} />
                    <Route path="/verify-email" element={<VerifyEmailRoute />} />
                    <Route path="/forgot-password" element={<ForgotPasswordRoute />} />
                    <Route path="/reset-password" element={<ResetPasswordRoute />} />
                    <Route path="/terms" element={<TermsRoute />} />
                    <Route element={<RequireAuth />}>
                      <Route element={<AppLayout />}>
                        <Route path="/" element={<HomeRoute />} />
                        <Route path="/knowledge" element={<KnowledgeRoute />} />
                        <Route path="/profile" element={<ProfileRoute />} />
                        <Route path="/shared/:shareId" element={<SharedChatRoute />} />
                        {/* every /admin screen behind the one admin guard (the server checks every operation too) */}
                        <Route element={<RequireAdmin />}>
                          <Route path="/admin" element={<AdminRoute />} />
                          <Route path="/admin/notion" element={<AdminNotionRoute />} />
                        </Route>
                      </Route>
                    </Route>
                    <Route path="*" element={<NotFoundRoute />} />
                  </Routes>
                </Suspense>
              </BrowserRouter>
            </ToastProvider>
          </AppearanceProvider>
        </PreferencesProvider>
      </AuthProvider>
    </ApolloProvider>
  );
}
