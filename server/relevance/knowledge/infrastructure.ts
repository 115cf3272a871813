import type { Occupation } from "./occupations.ts";

/** Operations, cloud, networks, databases and IT support. */
export const INFRASTRUCTURE: Occupation[] = [
  {
    id: "devops-engineer",
    titles: ["DevOps Engineer", "DevOps Specialist", "CI/CD Engineer", "Operations Engineer", "Ops Engineer", "DevOps工程师", "运维工程师", "运维开发", "运维开发工程师", "开发运维工程师", "运维"],
    phrases: ["automate software deployments", "build ci cd pipelines", "manage cloud infrastructure as code", "bridge development and operations", "automate servers and releases", "automate how code gets to servers", "set up build and deploy pipelines", "run docker and kubernetes", "manage servers with code", "make releases faster and safer", "look after cloud servers for developers"],
    skills: ["kubernetes", "docker", "terraform", "ci/cd", "jenkins", "aws", "ansible", "github actions"],
  },
  {
    id: "site-reliability-engineer",
    titles: ["Site Reliability Engineer", "SRE", "Production Engineer", "Reliability Engineer", "SRE工程师", "站点可靠性工程师"],
    phrases: ["keep servers running around the clock", "be on call when the site goes down at night", "make systems reliable and fast", "monitor uptime and fix outages", "keep websites up under heavy traffic", "keep websites online", "fix outages fast", "carry the pager for production", "reduce downtime and incidents", "make sure services stay up", "set up alerts and on call rotations", "automate away manual ops work"],
    skills: ["kubernetes", "prometheus", "golang", "linux", "incident response", "terraform", "grafana", "python"],
  },
  {
    id: "platform-engineer",
    titles: ["Platform Engineer", "Developer Platform Engineer", "Internal Platform Engineer", "Kubernetes Engineer", "平台工程师", "容器平台工程师", "容器平台", "云原生工程师"],
    phrases: ["build internal tools that developers deploy on", "run the kubernetes platform for engineering teams", "make it easy for developers to ship code", "manage clusters of containers", "build a self service platform for developers", "run kubernetes clusters", "build internal developer tools", "give engineers easy ways to deploy"],
    skills: ["kubernetes", "terraform", "golang", "argo cd", "backstage", "helm", "aws", "istio"],
  },
  {
    id: "infrastructure-engineer",
    titles: ["Infrastructure Engineer", "Systems Engineer", "Cloud Infrastructure Engineer", "Infrastructure Architect", "基础架构工程师", "基础设施工程师", "系统工程师"],
    phrases: ["set up and run servers storage and networks", "provision infrastructure for applications", "automate the company's server fleet", "run the servers and networks behind a product", "scale data center and cloud infrastructure", "automate server setup with ansible", "plan capacity for growing traffic", "manage servers storage and networks at scale", "keep core systems and servers running"],
    skills: ["terraform", "aws", "linux", "ansible", "vmware", "networking", "puppet", "chef"],
  },
  {
    id: "cloud-engineer",
    titles: ["Cloud Engineer", "AWS Engineer", "Azure Engineer", "GCP Engineer", "Cloud Operations Engineer", "Cloud Developer", "云计算工程师", "云工程师", "云计算"],
    phrases: ["move applications to the cloud", "manage aws azure or google cloud accounts", "run systems in the cloud", "set up cloud servers and storage", "run apps on aws", "build on amazon web services", "move servers from the office to the cloud", "automate cloud setup with terraform"],
    skills: ["aws", "azure", "google cloud", "terraform", "cloudformation", "linux", "python", "serverless"],
  },
  {
    id: "cloud-architect",
    titles: ["Cloud Architect", "Cloud Solutions Architect", "AWS Solutions Architect", "Azure Architect", "云架构师"],
    phrases: ["design cloud systems for companies", "plan cloud migrations", "choose cloud services for new platforms", "design how apps run on aws", "plan secure and scalable cloud setups", "design multi region cloud systems", "lead migrations from data centers to the cloud", "set cloud standards for engineering teams"],
    skills: ["aws", "azure", "google cloud", "cloud architecture", "terraform", "cloud security", "cost optimization"],
  },
  {
    id: "network-engineer",
    titles: ["Network Engineer", "Network Architect", "Network Specialist", "Network Infrastructure Engineer", "网络工程师", "网络架构师"],
    phrases: ["set up and fix computer networks", "configure routers and switches", "design company networks", "connect offices and data centers", "build networks for data centers", "troubleshoot network outages", "design wifi and wan for offices", "manage routers firewalls and switches", "plan network capacity and routing"],
    skills: ["cisco", "routing", "switching", "bgp", "ccna", "firewalls", "tcp/ip", "juniper"],
  },
  {
    id: "network-administrator",
    titles: ["Network Administrator", "Network Technician", "Network Support Technician", "网络管理员", "网管"],
    phrases: ["keep the office network and wifi working", "manage network equipment", "troubleshoot internet connection problems at work", "fix the office wifi", "manage firewalls and switches in the office", "set up vpn access for staff", "manage the office network", "fix slow internet in the office"],
    skills: ["lan/wan", "wifi", "vpn", "cisco", "dns", "dhcp", "network monitoring"],
  },
  {
    id: "system-administrator",
    titles: ["System Administrator", "Sysadmin", "IT Administrator", "Windows Administrator", "Server Administrator", "系统管理员", "系统运维"],
    phrases: ["maintain servers and user accounts", "keep company computers and servers running", "install updates and patches on servers", "look after servers and backups", "look after the company's servers", "manage windows and linux servers", "set up user accounts and permissions", "keep backups and email servers running"],
    skills: ["linux", "windows server", "active directory", "bash", "powershell", "vmware", "backups", "dns"],
  },
  {
    id: "linux-administrator",
    titles: ["Linux Administrator", "Linux System Administrator", "Linux Engineer", "Unix Administrator", "Linux运维工程师", "Linux工程师"],
    phrases: ["manage linux servers", "write shell scripts to automate servers", "tune and secure linux machines", "keep linux boxes patched and running", "administer red hat and ubuntu servers", "run linux servers for web hosting", "automate linux setup with ansible", "patch and harden linux hosts"],
    skills: ["linux", "bash", "red hat", "systemd", "ansible", "nginx", "shell scripting"],
  },
  {
    id: "database-administrator",
    titles: ["Database Administrator", "DBA", "Database Engineer", "Oracle DBA", "Database Reliability Engineer", "数据库管理员", "数据库工程师", "DBA工程师"],
    phrases: ["keep databases fast and backed up", "manage company databases", "tune slow database queries", "set up database replication and failover", "back up and restore databases", "keep mysql and postgres running", "upgrade and patch database servers", "monitor database health and space", "migrate databases to new servers"],
    skills: ["sql", "postgresql", "oracle", "mysql", "sql server", "backup and recovery", "replication", "performance tuning"],
  },
  {
    id: "storage-engineer",
    titles: ["Storage Engineer", "Backup Administrator", "Storage Administrator", "存储工程师"],
    phrases: ["manage storage systems and backups", "make sure data is backed up and can be restored", "plan disk capacity for servers", "manage file servers and storage arrays", "run backup software", "restore lost files from backups", "plan storage for growing data", "manage cloud and on prem storage"],
    skills: ["san", "nas", "netapp", "veeam", "backup", "dell emc", "ceph"],
  },
  {
    id: "virtualization-engineer",
    titles: ["Virtualization Engineer", "VMware Engineer", "Virtualization Administrator", "Citrix Engineer", "虚拟化工程师"],
    phrases: ["run virtual machines for the company", "manage vmware clusters", "deliver virtual desktops to employees", "manage hyper-v and vmware servers", "set up virtual desktops for staff", "consolidate servers onto virtual machines", "keep virtual machines running", "run citrix for remote employees"],
    skills: ["vmware vsphere", "hyper-v", "citrix", "esxi", "vdi", "nutanix"],
  },
  {
    id: "it-support-specialist",
    titles: ["IT Support Specialist", "Help Desk Technician", "IT Technician", "Desktop Support Technician", "Service Desk Analyst", "IT Support Engineer", "Helpdesk Analyst", "IT支持", "桌面支持", "IT运维"],
    phrases: ["fix computer problems for employees", "reset passwords and set up laptops", "answer tickets from staff with it issues", "help coworkers with their computers and printers", "fix laptops and printers", "set up new employees' computers", "solve staff tech problems", "answer the it help desk phone", "install software on work computers", "troubleshoot computers for a small office"],
    skills: ["windows", "active directory", "office 365", "troubleshooting", "ticketing systems", "hardware repair", "macos"],
  },
  {
    id: "it-manager",
    titles: ["IT Manager", "IT Director", "Head of IT", "IT Operations Manager", "信息技术经理", "IT经理", "信息化经理"],
    phrases: ["run the company's it department", "manage it staff and budgets", "choose and manage technology vendors", "keep the office technology working", "manage it support and infrastructure staff", "plan the company's technology budget", "manage computers phones and software for a company", "run it projects and vendors"],
    skills: ["it strategy", "itil", "vendor management", "budgeting", "microsoft 365", "cybersecurity", "team leadership"],
  },
  {
    id: "noc-technician",
    titles: ["NOC Technician", "NOC Engineer", "Network Operations Center Analyst", "NOC Analyst", "监控值班工程师"],
    phrases: ["monitor networks and alarms", "watch network status screens around the clock", "escalate outages to engineers", "watch monitoring screens for alarms", "work night shifts monitoring networks", "monitor servers and networks overnight", "open tickets when systems fail", "watch alerts in a network operations center"],
    skills: ["monitoring tools", "nagios", "solarwinds", "ticketing", "networking basics", "incident escalation"],
  },
  {
    id: "data-center-technician",
    titles: ["Data Center Technician", "Data Center Engineer", "Data Center Operations Technician", "数据中心工程师", "机房运维"],
    phrases: ["rack and cable servers", "replace failed hard drives in a data center", "install hardware in server rooms", "swap broken parts in servers", "work on the data center floor", "install servers in racks", "run cables in a data center", "work night shifts in a server room"],
    skills: ["server hardware", "cabling", "rack and stack", "hardware troubleshooting", "power and cooling", "fiber optics"],
  },
  {
    id: "telecom-engineer",
    titles: ["Telecommunications Engineer", "Telecom Engineer", "5G Engineer", "Wireless Network Engineer", "通信工程师", "无线网络工程师"],
    phrases: ["build mobile phone networks", "design telecom and fiber networks", "set up cell towers and radio links", "build phone and internet networks", "install fiber and wireless links", "plan cell phone coverage", "configure telecom equipment", "design fiber networks"],
    skills: ["5g", "lte", "fiber optics", "voip", "sip", "rf planning", "ip networking"],
  },
  {
    id: "observability-engineer",
    titles: ["Observability Engineer", "Monitoring Engineer", "监控工程师"],
    phrases: ["set up monitoring and alerts for systems", "build dashboards and logs for engineers", "trace requests across services", "build monitoring dashboards", "collect logs metrics and traces", "alert engineers when systems break", "set up datadog and prometheus", "make systems easy to debug"],
    skills: ["prometheus", "grafana", "datadog", "opentelemetry", "elk stack", "splunk"],
  },
  {
    id: "finops-analyst",
    titles: ["FinOps Analyst", "Cloud Cost Analyst", "FinOps Engineer", "云成本分析师"],
    phrases: ["cut cloud costs", "track cloud spending by team", "find wasted servers and savings", "lower the aws bill", "report cloud spend to finance", "analyze cloud bills", "reduce wasted cloud spending", "forecast cloud budgets"],
    skills: ["finops", "aws cost explorer", "cloud billing", "excel", "kubernetes cost allocation", "reserved instances"],
  },
  {
    id: "microsoft-365-administrator",
    titles: ["Microsoft 365 Administrator", "Office 365 Administrator", "M365 Administrator", "Exchange Administrator"],
    phrases: ["manage company email and office accounts", "set up teams and sharepoint", "manage laptops and phones with intune", "manage outlook and teams for staff", "set up office 365 accounts for employees", "manage company email accounts", "set up microsoft teams", "manage user licenses and mailboxes"],
    skills: ["microsoft 365", "exchange online", "entra id", "sharepoint", "intune", "powershell"],
  },
];
