// The eleven token formats that went through redaction unredacted (issue 28), each planted as it
// appears in real code or configuration. Every value is assembled from parts, so no file of this
// repository holds a whole credential literal; none is a real credential.
const j = (...parts: string[]): string => parts.join('');

export interface Planted {
  name: string;
  /** The secret value that must not leave the machine or reach the index. */
  secret: string;
  /** A file of an ordinary repository that holds it. */
  file: string;
  text: string;
}

const twilio = j('SK', '2b4f8c1d9e7a6b5c', '4d3e2f1a0b9c8d7e');
const sendgrid = j('SG.', 'Pl4ntedSendGridKey0123', '.', 'q8ZtR2wLx9vKm4NbP7cJh3FyD6sGa1UeW5oXi0TnQ2r');
const azureKey = j('HR0ZzOQ9+h7OsMDycwtYErgs4td33Xs8OQWCSPiHl1dFg2TZVmql', 'wyCm2QiMNbv4sI1uOgfIhFQb5SiwRrThFw==');
const heroku = j('8f3c2a1b-4d5e-', '4f60-9a7b-1c2d3e4f5a6b');
const pypi = j('pypi-AgEIcHlwaS5vcmc', 'CJGI5ZjNkYzQ2LTk0ZDktNDFiYy1hYjQ4LWU3Y2Q0Zjk4Pl4nted');
const docker = j('dckr_pat_', 'Pl4ntedDockerHub0123456789a');
const mailchimp = j('3f9a1c7e5b2d4f6a', '8c0e1b3d5f7a9c2e', '-us14');
const datadog = j('9a8b7c6d5e4f3a2b', '1c0d9e8f7a6b5c4d', 'e3f7a9c1');
const shopify = j('shpat_', 'a1b2c3d4e5f60718', '293a4b5c6d7e8f90');
const bearer = j('ya29.a0AfH6SMBPl4nted', 'OauthToken0123456789xyz');
const basic = Buffer.from(j('admin:', 'Pl4nted-password')).toString('base64');

export const PLANTED: Planted[] = [
  { name: 'Twilio API key', secret: twilio, file: 'src/notify/sms.ts', text: `export function smsClient() {\n  return twilio('${twilio}', process.env.TWILIO_SECRET);\n}\n` },
  { name: 'SendGrid API key', secret: sendgrid, file: 'src/notify/mail.py', text: `import sendgrid\n\ndef mail_client():\n    return sendgrid.SendGridAPIClient("${sendgrid}")\n` },
  { name: 'Azure storage key in a connection string', secret: azureKey, file: 'src/storage/blob.cs',
    text: `public static class BlobStore {\n    const string Conn = "DefaultEndpointsProtocol=https;AccountName=shopdata;AccountKey=${azureKey};EndpointSuffix=core.windows.net";\n}\n` },
  { name: 'Heroku API key', secret: heroku, file: 'deploy/heroku.ts', text: `export function herokuDeploy() {\n  const herokuApi = '${heroku}';\n  return release('web', herokuApi);\n}\n` },
  { name: 'PyPI upload token', secret: pypi, file: 'scripts/publish.sh', text: `#!/bin/sh\n# publish_package\ntwine upload -u __token__ -p ${pypi} dist/*\n` },
  { name: 'Docker Hub token', secret: docker, file: 'ci/registry.yml', text: `registry_login:\n  script: echo ${docker} | docker login -u shopbot --password-stdin\n` },
  { name: 'Mailchimp API key', secret: mailchimp, file: 'src/marketing/list.rb', text: `def mailchimp_client\n  Marketing.connect(mailchimp: '${mailchimp}')\nend\n` },
  { name: 'Datadog API key', secret: datadog, file: 'src/metrics/dd.go', text: `package metrics\n\nconst datadogApp = "${datadog}"\n\nfunc datadogClient() *Client { return NewClient(datadogApp) }\n` },
  { name: 'Shopify access token', secret: shopify, file: 'src/shop/admin.js', text: `export function shopifyAdmin(shop) {\n  return new Shopify.Clients.Rest(shop, '${shopify}');\n}\n` },
  { name: 'Authorization: Bearer value', secret: bearer, file: 'docs/orders-api.md', text: `# Orders API\n\n\`\`\`http\nGET https://api.example.com/v1/orders\nAuthorization: Bearer ${bearer}\nAccept: application/json\n\`\`\`\n` },
  { name: 'Authorization: Basic value', secret: basic, file: 'src/http/legacy.ts', text: `export function legacyHeaders() {\n  return { Authorization: 'Basic ${basic}' };\n}\n` },
];
