import type { Occupation } from "./occupations.ts";

/** Nursing, medicine, dentistry and pharmacy. */
export const HEALTHCARE: Occupation[] = [
  {
    id: "registered-nurse",
    titles: ["Registered Nurse", "Nurse", "RN", "Staff Nurse", "Clinical Nurse", "Hospital Nurse", "护士", "注册护士"],
    phrases: ["care for patients in a hospital", "give medication and monitor patients", "work night shifts on a hospital ward", "look after sick people"],
    skills: ["patient care", "medication administration", "iv therapy", "basic life support", "electronic health records", "wound care", "triage"],
  },
  {
    id: "nurse-practitioner",
    titles: ["Nurse Practitioner", "NP", "Family Nurse Practitioner", "Advanced Practice Nurse", "执业护师"],
    phrases: ["diagnose and treat patients as a nurse", "prescribe medication and run a clinic", "provide primary care as an advanced nurse"],
    skills: ["patient assessment", "prescribing", "primary care", "diagnosis", "electronic health records", "chronic disease management"],
  },
  {
    id: "licensed-practical-nurse",
    titles: ["Licensed Practical Nurse", "LPN", "Licensed Vocational Nurse", "LVN", "Enrolled Nurse"],
    phrases: ["provide basic nursing care", "take vital signs and help patients", "give medications in a nursing home"],
    skills: ["vital signs", "medication administration", "patient care", "charting", "basic life support"],
  },
  {
    id: "nursing-assistant",
    titles: ["Certified Nursing Assistant", "CNA", "Nursing Assistant", "Nurse Aide", "Patient Care Assistant", "Healthcare Assistant", "护理员", "护工"],
    phrases: ["help patients bathe eat and move", "assist nurses with daily patient care", "turn and reposition patients in bed"],
    skills: ["patient care", "vital signs", "mobility assistance", "infection control", "cpr"],
  },
  {
    id: "icu-nurse",
    titles: ["ICU Nurse", "Critical Care Nurse", "Intensive Care Nurse", "重症监护护士"],
    phrases: ["care for critically ill patients", "monitor patients on ventilators", "manage life support in intensive care"],
    skills: ["critical care", "acls", "ventilator management", "hemodynamic monitoring", "iv therapy"],
  },
  {
    id: "emergency-nurse",
    titles: ["Emergency Room Nurse", "ER Nurse", "Emergency Nurse", "Trauma Nurse", "急诊护士"],
    phrases: ["treat patients in the emergency department", "triage urgent cases as they arrive", "stabilize trauma patients"],
    skills: ["triage", "acls", "trauma care", "pals", "emergency care"],
  },
  {
    id: "mental-health-nurse",
    titles: ["Mental Health Nurse", "Psychiatric Nurse", "Psychiatric Mental Health Nurse", "精神科护士"],
    phrases: ["care for patients with mental illness", "support people in psychiatric wards"],
    skills: ["mental health assessment", "de-escalation", "medication administration", "care planning", "crisis intervention"],
  },
  {
    id: "nurse-manager",
    titles: ["Nurse Manager", "Charge Nurse", "Head Nurse", "Director of Nursing", "Nursing Supervisor", "护士长"],
    phrases: ["lead a team of nurses", "manage a hospital unit", "schedule nursing staff and handle patient safety"],
    skills: ["nursing leadership", "staffing", "scheduling", "quality improvement", "patient safety", "budgeting"],
  },
  {
    id: "travel-nurse",
    titles: ["Travel Nurse", "Agency Nurse", "Per Diem Nurse"],
    phrases: ["take short nursing contracts in different cities", "fill nurse shortages at hospitals around the country"],
    skills: ["adaptability", "patient care", "multiple specialties", "electronic health records", "state licensure"],
  },
  {
    id: "physician",
    titles: ["Physician", "Doctor", "Medical Doctor", "General Practitioner", "GP", "Family Physician", "Primary Care Physician", "Hospitalist", "医生", "医师", "全科医生"],
    phrases: ["diagnose and treat illnesses", "see patients in a clinic", "examine patients and prescribe treatment"],
    skills: ["diagnosis", "patient care", "clinical medicine", "prescribing", "electronic health records", "medical license"],
  },
  {
    id: "surgeon",
    titles: ["Surgeon", "General Surgeon", "Orthopedic Surgeon", "Neurosurgeon", "外科医生"],
    phrases: ["perform operations on patients", "operate in the operating room", "repair injuries with surgery"],
    skills: ["surgery", "surgical procedures", "anatomy", "laparoscopy", "patient care"],
  },
  {
    id: "anesthesiologist",
    titles: ["Anesthesiologist", "Anesthetist", "Nurse Anesthetist", "CRNA", "麻醉师", "麻醉医生"],
    phrases: ["put patients to sleep for surgery", "manage anesthesia and pain during operations"],
    skills: ["anesthesia", "airway management", "pain management", "acls", "pharmacology"],
  },
  {
    id: "psychiatrist",
    titles: ["Psychiatrist", "Child Psychiatrist", "精神科医生"],
    phrases: ["treat mental illness with medication", "diagnose psychiatric disorders"],
    skills: ["psychiatry", "psychopharmacology", "diagnosis", "dsm-5", "psychotherapy"],
  },
  {
    id: "pediatrician",
    titles: ["Pediatrician", "Pediatric Doctor", "儿科医生"],
    phrases: ["treat sick children", "care for babies and kids", "give children checkups and vaccines"],
    skills: ["pediatrics", "child development", "vaccinations", "diagnosis", "patient care"],
  },
  {
    id: "radiologist",
    titles: ["Radiologist", "Diagnostic Radiologist", "放射科医生"],
    phrases: ["read x rays and mri scans", "interpret medical images"],
    skills: ["radiology", "ct", "mri", "ultrasound", "diagnostic imaging"],
  },
  {
    id: "cardiologist",
    titles: ["Cardiologist", "Heart Doctor", "心内科医生"],
    phrases: ["treat heart disease", "diagnose heart problems with tests"],
    skills: ["cardiology", "echocardiography", "ecg", "catheterization", "patient care"],
  },
  {
    id: "dermatologist",
    titles: ["Dermatologist", "Skin Doctor", "皮肤科医生"],
    phrases: ["treat skin conditions", "check moles and treat acne"],
    skills: ["dermatology", "skin biopsies", "cosmetic procedures", "diagnosis"],
  },
  {
    id: "emergency-physician",
    titles: ["Emergency Physician", "Emergency Medicine Doctor", "ER Doctor", "急诊科医生"],
    phrases: ["treat patients in the emergency room", "handle medical emergencies and trauma"],
    skills: ["emergency medicine", "trauma care", "acls", "triage", "procedures"],
  },
  {
    id: "dentist",
    titles: ["Dentist", "Dental Surgeon", "Orthodontist", "General Dentist", "牙医", "口腔医生"],
    phrases: ["fix teeth", "treat cavities and gum disease", "clean and repair teeth", "straighten teeth with braces"],
    skills: ["dentistry", "oral surgery", "fillings", "root canals", "dental x-rays", "patient care"],
  },
  {
    id: "dental-hygienist",
    titles: ["Dental Hygienist", "Oral Hygienist", "口腔卫生士"],
    phrases: ["clean patients' teeth", "teach people to care for their teeth"],
    skills: ["teeth cleaning", "periodontal care", "dental x-rays", "oral health education"],
  },
  {
    id: "dental-assistant",
    titles: ["Dental Assistant", "Dental Nurse", "牙科助理"],
    phrases: ["assist the dentist during procedures", "prepare dental instruments", "help patients in the dental chair"],
    skills: ["chairside assisting", "sterilization", "dental x-rays", "patient scheduling"],
  },
  {
    id: "pharmacist",
    titles: ["Pharmacist", "Clinical Pharmacist", "Retail Pharmacist", "Hospital Pharmacist", "药剂师", "药师"],
    phrases: ["dispense medicines", "advise patients on prescriptions", "check drug interactions"],
    skills: ["pharmacology", "dispensing", "medication therapy management", "drug interactions", "pharmacy law"],
  },
  {
    id: "pharmacy-technician",
    titles: ["Pharmacy Technician", "Pharmacy Assistant", "药房技术员"],
    phrases: ["fill prescriptions", "count pills and label medicines", "help customers at the pharmacy counter"],
    skills: ["dispensing", "inventory", "pharmacy software", "customer service", "insurance billing"],
  },
];
