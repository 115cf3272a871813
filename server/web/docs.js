// /docs: Swagger UI (served from node_modules by this service) over /openapi/json. The search
// page's saved API key, if any, is filled in so "Try it out" works at once.
const ui = window.SwaggerUIBundle({
  url: "/openapi/json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  onComplete() {
    let key = null;
    try { key = localStorage.getItem("jobsearch.apiKey"); } catch { /* storage disabled */ }
    if (key) ui.preauthorizeApiKey("ApiKey", key);
  },
});
window.ui = ui;
